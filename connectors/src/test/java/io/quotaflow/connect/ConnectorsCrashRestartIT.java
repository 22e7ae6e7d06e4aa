package io.quotaflow.connect;

import static io.quotaflow.fixtures.KubeObjects.pod;
import static io.quotaflow.fixtures.KubeObjects.quota;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
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
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.status.QuotaStatus;
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
 * {@code quotaflow connect} killed with -9 and started again as the same pod: the restarted process
 * carries out the next eviction command and writes the next status within 5 s of leading, though
 * its predecessor never left its consumer groups nor released its lease; and SIGTERM then stops it
 * within 5 s.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class ConnectorsCrashRestartIT {

  /** The targets of issue 12. */
  private static final Duration NEXT_EVICTION = Duration.ofSeconds(5);

  private static final Duration STOP = Duration.ofSeconds(5);
  private static final Duration FIRST_START = Duration.ofSeconds(60);
  private static MockCluster mock;

  @TempDir Path dir;

  private final EmbeddedKafkaBroker broker;

  ConnectorsCrashRestartIT(final EmbeddedKafkaBroker broker) {
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
  void afterKillDashNineTheRestartedPodEvictsAndWritesStatusWithinFiveSecondsAndStopsInFive()
      throws Exception {
    // The topics exist before anything reads or writes them, as the engine would create them.
    final TopicCatalogue topics = TestTopics.provision(broker);
    final String prefix = topics.prefix();
    final String namespace = MockCluster.uniqueNamespace("crash");
    final String group = MockCluster.uniqueNamespace("team");
    final String lease = MockCluster.uniqueNamespace("lease");
    mock.quotas().resource(quota(namespace, group).min("cpu", "10").build()).create();
    final Map<String, String> settings =
        Map.of(
            "QUOTAFLOW_TOPIC_PREFIX", prefix,
            "QUOTAFLOW_TOPIC_PARTITIONS", "2",
            "QUOTAFLOW_METRICS_PORT", "-1",
            "QUOTAFLOW_STATUS_FLUSH_INTERVAL", "200ms",
            "QUOTAFLOW_LEADER_ELECTION_LEASE_NAME", lease);
    final Path kubeconfig = ConnectProcess.kubeconfig(mock, dir);

    try (ConnectProcess first =
        ConnectProcess.start("connectors-0", broker, kubeconfig, settings)) {
      final Pod p1 = createPod(namespace, "batch-1");
      EvictionEndpoint.of(mock, namespace, "batch-1").accepts();
      await()
          .atMost(FIRST_START)
          .untilAsserted(() -> assertThat(first.leads(mock, lease)).as(first.log()).isTrue());
      final EvictionCommand c1 = send(topics, key(namespace, "batch-1"), p1);
      assertThat(awaitResult(topics, c1, FIRST_START).getOutcome())
          .isEqualTo(EvictionOutcome.EVICTED);
      sendRuntime(topics, group, 1_000L);
      awaitRuntimeAnnotation(namespace, group, "{\"cpu\":\"1\"}", FIRST_START);

      first.kill();
    }

    try (ConnectProcess restarted =
        ConnectProcess.start("connectors-0", broker, kubeconfig, settings)) {
      final Pod p2 = createPod(namespace, "batch-2");
      EvictionEndpoint.of(mock, namespace, "batch-2").accepts();
      // The lease names the same pod: the restarted process leads as soon as it has started.
      await().atMost(FIRST_START).until(() -> restarted.log().contains("connectors-0 leads"));

      final EvictionCommand c2 = send(topics, key(namespace, "batch-2"), p2);
      sendRuntime(topics, group, 2_000L);

      assertThat(awaitResult(topics, c2, NEXT_EVICTION.plusSeconds(1)).getOutcome())
          .as(restarted.log())
          .isEqualTo(EvictionOutcome.EVICTED);
      awaitRuntimeAnnotation(namespace, group, "{\"cpu\":\"2\"}", NEXT_EVICTION);

      restarted.terminate();
      assertThat(restarted.awaitExit(STOP)).as(restarted.log()).isTrue();
    }
  }

  private Pod createPod(final String namespace, final String name) {
    return mock.client().resource(pod(namespace, name).running("node-a").build()).create();
  }

  private static PodKey key(final String namespace, final String name) {
    return PodKey.newBuilder().setCluster("east").setNamespace(namespace).setName(name).build();
  }

  private EvictionCommand send(final TopicCatalogue topics, final PodKey key, final Pod pod) {
    final String uid = pod.getMetadata().getUid();
    final EvictionCommand command =
        EvictionCommand.newBuilder()
            .setId(key.getNamespace() + "/" + key.getName() + "/" + uid)
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

  private void sendRuntime(final TopicCatalogue topics, final String group, final long cpu) {
    final GroupRuntime runtime =
        GroupRuntime.newBuilder()
            .setRuntime(Map.of("cpu", cpu))
            .setRequest(Map.of("cpu", cpu))
            .setUsed(Map.of("cpu", cpu))
            .setComputedAt(Instant.now())
            .build();
    try (KafkaProducer<QuotaKey, GroupRuntime> producer =
        new KafkaProducer<>(
            TestTopics.kafka(broker),
            topics.runtime().keySerializer(),
            topics.runtime().valueSerializer())) {
      producer.send(
          new ProducerRecord<>(
              topics.runtime().name(),
              QuotaKey.newBuilder().setCluster("east").setName(group).build(),
              runtime));
    }
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

  private static void awaitRuntimeAnnotation(
      final String namespace, final String group, final String expected, final Duration within) {
    await()
        .atMost(within)
        .pollInterval(Duration.ofMillis(100))
        .untilAsserted(
            () -> {
              final GenericKubernetesResource quota =
                  mock.quotas().inNamespace(namespace).withName(group).get();
              assertThat(quota.getMetadata().getAnnotations())
                  .containsEntry(QuotaStatus.RUNTIME_ANNOTATION, expected);
            });
  }
}
