package io.quotaflow.admission.people.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.quota.PodRef;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionOutcome;
import io.quotaflow.schemas.EvictionResult;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.topics.TopicCatalogue;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The web view's eviction feed against a real broker: it reads the tail of the commands and results
 * topics, matches each outcome to its command, follows new records, and stops promptly.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaEvictionFeedIT {

  private static final Duration SEEN = Duration.ofSeconds(30);

  private final TopicCatalogue topics =
      TopicCatalogue.withPrefix("view-" + UUID.randomUUID().toString().substring(0, 8) + ".");

  @Test
  void readsTheLastCommandsThenFollowsOutcomesAndStopsPromptly(EmbeddedKafkaBroker broker)
      throws Exception {
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
      admin
          .createTopics(
              List.of(
                  topics.evictions().newTopic(1, (short) 1),
                  topics.evictionResults().newTopic(1, (short) 1)))
          .all()
          .get();
    }
    final RecentActivity activity = new RecentActivity(10);
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class))) {
      for (final String pod : List.of("old", "a-2", "a-3")) {
        command(producer, pod);
      }
      producer.flush();

      final KafkaEvictionFeed feed =
          new KafkaEvictionFeed(
                  Map.of("bootstrap.servers", broker.bootstrapServers(), "application.id", "x"),
                  topics,
                  activity,
                  2)
              .start();
      try {
        await()
            .atMost(SEEN)
            .untilAsserted(
                () ->
                    assertThat(activity.evictions("east"))
                        .extracting(e -> e.pod().name())
                        .containsExactly("a-3", "a-2"));

        producer.send(
            new ProducerRecord<>(
                topics.evictionResults().name(),
                key(topics, "a-3"),
                topics
                    .evictionResults()
                    .valueSerializer()
                    .serialize(
                        topics.evictionResults().name(),
                        EvictionResult.newBuilder()
                            .setCommandId("cmd-a-3")
                            .setPodUid("uid-a-3")
                            .setOutcome(EvictionOutcome.EVICTED)
                            .setMessage("pod team-a/a-3 evicted")
                            .setAttempts(1)
                            .setCompletedAt(Instant.parse("2026-03-01T12:00:05Z"))
                            .build())));
        producer.flush();

        await()
            .atMost(SEEN)
            .untilAsserted(
                () -> {
                  final RecentActivity.Eviction a3 = activity.evictions("east").get(0);
                  assertThat(a3.pod()).isEqualTo(new PodRef("team-a", "a-3"));
                  assertThat(a3.outcome()).contains("EVICTED");
                  assertThat(a3.message()).contains("evicted");
                  assertThat(a3.group()).isEqualTo("team-a");
                });
        assertThat(activity.evictions("east").get(1).outcome()).isEmpty();
      } finally {
        final long stopping = System.nanoTime();
        feed.close();
        assertThat(Duration.ofNanos(System.nanoTime() - stopping))
            .isLessThan(Duration.ofSeconds(5));
      }
    }
  }

  private void command(KafkaProducer<byte[], byte[]> producer, String pod) {
    producer.send(
        new ProducerRecord<>(
            topics.evictions().name(),
            key(topics, pod),
            topics
                .evictions()
                .valueSerializer()
                .serialize(
                    topics.evictions().name(),
                    EvictionCommand.newBuilder()
                        .setId("cmd-" + pod)
                        .setPodUid("uid-" + pod)
                        .setGroup("team-a")
                        .setReason("team-a is over its runtime")
                        .setIssuedAt(Instant.parse("2026-03-01T12:00:00Z"))
                        .build())));
  }

  private static byte[] key(TopicCatalogue topics, String pod) {
    return topics
        .evictions()
        .keySerializer()
        .serialize(topics.evictions().name(), new PodKey("east", "team-a", pod));
  }
}
