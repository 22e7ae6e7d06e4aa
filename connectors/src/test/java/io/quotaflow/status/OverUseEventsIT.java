package io.quotaflow.status;

import static io.quotaflow.fixtures.KubeObjects.quota;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.cluster.Sleeper;
import io.quotaflow.events.EventSettings;
import io.quotaflow.fixtures.MockCluster;
import io.quotaflow.fixtures.TestTopics;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.topics.TopicCatalogue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedKafkaExtension.class)
class OverUseEventsIT {

  private static final Duration WAIT = Duration.ofSeconds(20);
  private static MockCluster mock;

  private final EmbeddedKafkaBroker broker;
  private TopicCatalogue topics;
  private String namespace;
  private String group;
  private StatusWriter writer;

  OverUseEventsIT(final EmbeddedKafkaBroker broker) {
    this.broker = broker;
  }

  @BeforeAll
  static void startCluster() {
    mock = MockCluster.start("east");
  }

  @AfterAll
  static void stopCluster() {
    mock.close();
  }

  @BeforeEach
  void freshTopicsAndNamespace() {
    topics = TestTopics.provision(broker);
    namespace = MockCluster.uniqueNamespace("overuse");
    group = MockCluster.uniqueNamespace("team");
  }

  @AfterEach
  void stopWriter() {
    if (writer != null) {
      writer.close();
    }
  }

  @Test
  void aGroupThatBecomesOverUsedGetsAWarningWithTheNumbersAndANormalEventWhenItIsBack() {
    mock.quotas().resource(quota(namespace, group).min("cpu", "10").build()).create();
    start(EventSettings.defaults());

    send(runtime(10_000L, 12_000L));

    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(events())
                    .singleElement()
                    .satisfies(
                        event -> {
                          assertThat(event.getType()).isEqualTo("Warning");
                          assertThat(event.getReason()).isEqualTo("OverUsed");
                          assertThat(event.getRegarding().getKind()).isEqualTo("ElasticQuota");
                          assertThat(event.getRegarding().getName()).isEqualTo(group);
                          assertThat(event.getNote())
                              .isEqualTo(
                                  "group "
                                      + group
                                      + " uses more than its runtime in cpu (used 12, runtime"
                                      + " 10)");
                          assertThat(event.getReportingController())
                              .isEqualTo(StatusWriter.CONTROLLER);
                        }));

    send(runtime(10_000L, 11_000L));
    send(runtime(10_000L, 9_000L));

    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(events())
                    .extracting(Event::getType, Event::getReason)
                    .as("still over-used tells nothing; back within tells once")
                    .containsExactlyInAnyOrder(
                        tuple("Warning", "OverUsed"), tuple("Normal", "NoLongerOverUsed")));
  }

  @Test
  void withEventsOffNothingIsEmitted() {
    mock.quotas().resource(quota(namespace, group).min("cpu", "10").build()).create();
    start(EventSettings.off());

    send(runtime(10_000L, 12_000L));

    await()
        .atMost(WAIT)
        .until(() -> mock.quotas().inNamespace(namespace).withName(group).get(), q -> hasUsed(q));
    assertThat(events()).isEmpty();
  }

  private static boolean hasUsed(final GenericKubernetesResource q) {
    return q.getAdditionalProperties().get("status") != null;
  }

  private void start(final EventSettings events) {
    writer =
        new StatusWriter(
            List.of(mock.cluster()),
            topics,
            TestTopics.kafka(broker),
            new StatusSettings(
                Duration.ofMillis(300),
                100,
                100,
                Duration.ofHours(1),
                "status-" + UUID.randomUUID()),
            events,
            Clock.systemUTC(),
            Sleeper.SYSTEM,
            new SimpleMeterRegistry());
    writer.start();
  }

  /** A leaf group tracking cpu, with the given runtime and used (milli-cores). */
  private static GroupRuntime runtime(final long runtime, final long used) {
    return GroupRuntime.newBuilder()
        .setMin(Map.of("cpu", 10_000L))
        .setRequest(Map.of("cpu", used))
        .setRuntime(Map.of("cpu", runtime))
        .setUsed(Map.of("cpu", used))
        .setComputedAt(Instant.parse("2026-03-01T12:00:00Z"))
        .build();
  }

  private void send(final GroupRuntime value) {
    try (KafkaProducer<QuotaKey, GroupRuntime> producer =
        new KafkaProducer<>(
            TestTopics.kafka(broker),
            topics.runtime().keySerializer(),
            topics.runtime().valueSerializer())) {
      producer.send(
          new ProducerRecord<>(
              topics.runtime().name(),
              QuotaKey.newBuilder().setCluster("east").setName(group).build(),
              value));
      producer.flush();
    }
  }

  private List<Event> events() {
    return mock.client().events().v1().events().inNamespace(namespace).list().getItems();
  }
}
