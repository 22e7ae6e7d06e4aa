package io.quotaflow.connect;

import static io.quotaflow.fixtures.KubeObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.fixtures.EvictionEndpoint;
import io.quotaflow.fixtures.MockCluster;
import io.quotaflow.fixtures.TestTopics;
import io.quotaflow.fixtures.TopicReader;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionOutcome;
import io.quotaflow.schemas.EvictionResult;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.topics.TopicCatalogue;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two replicas of {@code quotaflow connect} against one cluster and one Kafka: one leads, the other
 * waits. The leader lost hard (kill -9: no lease release, no group leave) is replaced within the
 * lease duration, and the new leader carries out the next eviction command; a leader stopped by
 * SIGTERM releases the lease, and the other takes over at its next try.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class LeaderHandOverIT {

  private static final Duration LEASE = Duration.ofSeconds(4);
  private static final Duration RETRY = Duration.ofMillis(500);

  /** Issue 12's target for the first eviction of a new leader, once it leads. */
  private static final Duration NEXT_EVICTION = Duration.ofSeconds(5);

  private static final Duration FIRST_START = Duration.ofSeconds(60);
  private static MockCluster mock;

  @TempDir Path dir;

  private final EmbeddedKafkaBroker broker;

  LeaderHandOverIT(final EmbeddedKafkaBroker broker) {
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

  @Test
  void theFollowerTakesOverWithinTheLeaseWhenTheLeaderIsLostAndAtOnceWhenItStops()
      throws Exception {
    final TopicCatalogue topics = TestTopics.provision(broker);
    final String namespace = MockCluster.uniqueNamespace("handover");
    final String lease = MockCluster.uniqueNamespace("lease");
    final Map<String, String> settings =
        Map.of(
            "QUOTAFLOW_TOPIC_PREFIX",
            topics.prefix(),
            "QUOTAFLOW_TOPIC_PARTITIONS",
            "2",
            "QUOTAFLOW_METRICS_PORT",
            "-1",
            "QUOTAFLOW_LEADER_ELECTION_LEASE_NAME",
            lease,
            "QUOTAFLOW_LEADER_ELECTION_LEASE_DURATION",
            LEASE.toMillis() + "ms",
            "QUOTAFLOW_LEADER_ELECTION_RENEW_DEADLINE",
            "3s",
            "QUOTAFLOW_LEADER_ELECTION_RETRY_PERIOD",
            RETRY.toMillis() + "ms");
    final Path kubeconfig = ConnectProcess.kubeconfig(mock, dir);

    try (ConnectProcess a = ConnectProcess.start("connectors-a", broker, kubeconfig, settings)) {
      await()
          .atMost(FIRST_START)
          .untilAsserted(() -> assertThat(a.leads(mock, lease)).as(a.log()).isTrue());
      final Pod first = createPod(namespace, "batch-1");
      EvictionEndpoint.of(mock, namespace, "batch-1").accepts();
      assertThat(awaitResult(topics, send(topics, namespace, first), FIRST_START).getOutcome())
          .as(a.log())
          .isEqualTo(EvictionOutcome.EVICTED);

      try (ConnectProcess b = ConnectProcess.start("connectors-b", broker, kubeconfig, settings)) {
        await().atMost(FIRST_START).until(() -> b.log().contains("connectors-b follows"));

        // The leader's node is lost.
        a.kill();
        final Pod second = createPod(namespace, "batch-2");
        EvictionEndpoint.of(mock, namespace, "batch-2").accepts();
        final EvictionCommand command = send(topics, namespace, second);

        await()
            .atMost(LEASE.plus(RETRY).plusSeconds(1))
            .pollInterval(Duration.ofMillis(100))
            .untilAsserted(() -> assertThat(b.leads(mock, lease)).as(b.log()).isTrue());
        assertThat(awaitResult(topics, command, NEXT_EVICTION).getOutcome())
            .as(b.log())
            .isEqualTo(EvictionOutcome.EVICTED);

        // A replaces itself as a follower; B is stopped as Kubernetes stops a pod.
        try (ConnectProcess again =
            ConnectProcess.start("connectors-a", broker, kubeconfig, settings)) {
          await().atMost(FIRST_START).until(() -> again.log().contains("connectors-a follows"));
          b.terminate();
          assertThat(b.awaitExit(Duration.ofSeconds(5))).as(b.log()).isTrue();
          // Released: taken at the next try, well within the lease duration.
          await()
              .atMost(RETRY.multipliedBy(2).plusSeconds(1))
              .pollInterval(Duration.ofMillis(100))
              .untilAsserted(() -> assertThat(again.leads(mock, lease)).as(again.log()).isTrue());
          final Pod third = createPod(namespace, "batch-3");
          EvictionEndpoint.of(mock, namespace, "batch-3").accepts();
          assertThat(
                  awaitResult(topics, send(topics, namespace, third), NEXT_EVICTION.plus(LEASE))
                      .getOutcome())
              .as(again.log())
              .isEqualTo(EvictionOutcome.EVICTED);
        }
      }
    }
  }

  private Pod createPod(final String namespace, final String name) {
    return mock.client().resource(pod(namespace, name).running("node-a").build()).create();
  }

  private EvictionCommand send(final TopicCatalogue topics, final String namespace, final Pod pod) {
    final PodKey key =
        PodKey.newBuilder()
            .setCluster("east")
            .setNamespace(namespace)
            .setName(pod.getMetadata().getName())
            .build();
    final String uid = pod.getMetadata().getUid();
    final EvictionCommand command =
        EvictionCommand.newBuilder()
            .setId(namespace + "/" + key.getName() + "/" + uid)
            .setPodUid(uid)
            .setGroup("team-a")
            .setReason("team-a uses more cpu than its runtime")
            .setIssuedAt(Instant.now())
            .build();
    try (KafkaProducer<PodKey, EvictionCommand> producer =
        new KafkaProducer<>(
            TestTopics.kafka(broker),
            topics.evictions().keySerializer(),
            topics.evictions().valueSerializer())) {
      producer.send(new ProducerRecord<>(topics.evictions().name(), key, command));
    }
    return command;
  }

  private EvictionResult awaitResult(
      final TopicCatalogue topics, final EvictionCommand command, final Duration within) {
    try (TopicReader<PodKey, EvictionResult> results =
        new TopicReader<>(broker, topics.evictionResults())) {
      return await()
          .atMost(within)
          .pollInterval(Duration.ofMillis(100))
          .until(
              () ->
                  results.read().stream()
                      .flatMap(entry -> entry.value().stream())
                      .filter(result -> result.getCommandId().equals(command.getId()))
                      .findFirst(),
              Optional::isPresent)
          .orElseThrow();
    }
  }
}
