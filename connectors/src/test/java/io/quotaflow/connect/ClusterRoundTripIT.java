package io.quotaflow.connect;

import static io.quotaflow.fixtures.KubeObjects.node;
import static io.quotaflow.fixtures.KubeObjects.pod;
import static io.quotaflow.fixtures.KubeObjects.quota;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.cluster.Sleeper;
import io.quotaflow.engine.Engine;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.evict.EvictionExecutor;
import io.quotaflow.evict.EvictionSettings;
import io.quotaflow.fixtures.EvictionEndpoint;
import io.quotaflow.fixtures.MockCluster;
import io.quotaflow.fixtures.TestTopics;
import io.quotaflow.fixtures.TopicReader;
import io.quotaflow.schemas.EvictionOutcome;
import io.quotaflow.schemas.EvictionResult;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.source.KubeSource;
import io.quotaflow.source.SourceSettings;
import io.quotaflow.status.QuotaStatus;
import io.quotaflow.status.StatusSettings;
import io.quotaflow.status.StatusWriter;
import io.quotaflow.topics.TopicCatalogue;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole loop on one mock cluster: its objects go through the source to the broker, the engine
 * computes runtimes and eviction commands, the status writer shows the runtimes on the
 * ElasticQuotas and the eviction executor evicts the pod that reclaim picked.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class ClusterRoundTripIT {

  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path stateDir;

  @Test
  void runtimesReachTheElasticQuotasAndAnOverUsedGroupLosesItsLeastImportantPod(
      final EmbeddedKafkaBroker broker) {
    final String id = UUID.randomUUID().toString().substring(0, 8);
    final TopicCatalogue topics = TestTopics.provision(broker);
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (MockCluster mock = MockCluster.start("east")) {
      final String namespace = MockCluster.uniqueNamespace("loop");
      // A 10-cpu cluster; team-a is guaranteed 2 cpu, team-b 8, both may grow to 10.
      mock.client().resource(node("node-" + id).allocatable("cpu", "10").build()).create();
      mock.quotas()
          .resource(quota(namespace, "team-a").min("cpu", "2").max("cpu", "10").build())
          .create();
      mock.quotas()
          .resource(quota(namespace, "team-b").min("cpu", "8").max("cpu", "10").build())
          .create();
      // team-a borrows team-b's idle guarantee: 6 cpu in use.
      mock.client()
          .resource(
              pod(namespace, "a-1")
                  .quota("team-a")
                  .request("cpu", "2")
                  .priority(10)
                  .running("node-" + id)
                  .build())
          .create();
      mock.client()
          .resource(
              pod(namespace, "a-2")
                  .quota("team-a")
                  .request("cpu", "4")
                  .priority(0)
                  .running("node-" + id)
                  .build())
          .create();
      final EvictionEndpoint eviction = EvictionEndpoint.of(mock, namespace, "a-2").accepts();

      try (KubeSource source =
              new KubeSource(
                  List.of(mock.cluster()),
                  topics,
                  TestTopics.kafka(broker),
                  SourceSettings.defaults(),
                  registry);
          Engine engine = new Engine(engineConfig(broker, topics, id), registry);
          StatusWriter writer =
              new StatusWriter(
                  List.of(mock.cluster()),
                  topics,
                  TestTopics.kafka(broker),
                  new StatusSettings(
                      Duration.ofMillis(200), 100, 100, Duration.ofHours(1), "status-" + id),
                  Clock.systemUTC(),
                  Sleeper.SYSTEM,
                  registry);
          EvictionExecutor executor =
              new EvictionExecutor(
                  List.of(mock.cluster()),
                  topics,
                  TestTopics.kafka(broker),
                  EvictionSettings.defaults().withGroupId("evict-" + id),
                  Clock.systemUTC(),
                  Sleeper.SYSTEM,
                  registry);
          TopicReader<QuotaKey, GroupRuntime> runtimes =
              new TopicReader<>(broker, topics.runtime());
          TopicReader<PodKey, EvictionResult> results =
              new TopicReader<>(broker, topics.evictionResults())) {
        source.start().orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
        engine.start();
        writer.start();
        executor.start();
        await().atMost(WAIT).until(() -> engine.streams().state() == KafkaStreams.State.RUNNING);

        // team-a's runtime: its whole request, lent by the idle team-b.
        await()
            .atMost(WAIT)
            .untilAsserted(
                () ->
                    assertThat(annotation(mock, namespace, "team-a"))
                        .isEqualTo("{\"cpu\":\"6\"}")
                        .isEqualTo(runtimeAnnotationOf(runtimes, "team-a")));

        // team-b wants its guarantee back: team-a's runtime falls to 2, below its 6 in use.
        mock.client()
            .resource(pod(namespace, "b-1").quota("team-b").request("cpu", "8").build())
            .create();

        await()
            .atMost(WAIT)
            .untilAsserted(
                () ->
                    assertThat(annotation(mock, namespace, "team-a")).isEqualTo("{\"cpu\":\"2\"}"));
        final EvictionResult result =
            await()
                .atMost(WAIT)
                .until(
                    () ->
                        results.read().stream()
                            .flatMap(entry -> entry.value().stream())
                            .findFirst(),
                    Optional::isPresent)
                .orElseThrow();
        assertThat(result.getOutcome()).isEqualTo(EvictionOutcome.EVICTED);
        assertThat(eviction.requests()).hasSize(1);
        await()
            .atMost(WAIT)
            .until(() -> mock.client().pods().inNamespace(namespace).withName("a-2").get() == null);
        assertThat(mock.client().pods().inNamespace(namespace).withName("a-1").get())
            .as("the more important pod stays")
            .isNotNull();
        assertThat(results.read()).hasSize(1);
      }
    }
  }

  private EngineConfig engineConfig(
      final EmbeddedKafkaBroker broker, final TopicCatalogue topics, final String id) {
    return EngineConfig.builder()
        .set(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers())
        .set(StreamsConfig.APPLICATION_ID_CONFIG, "quotaflow-loop-" + id)
        .set(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString())
        .set(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "100")
        .set(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0")
        .set(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), "6000")
        .set(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), "500")
        .set(EngineSettings.TOPIC_PREFIX.key(), topics.prefix())
        .set(EngineSettings.TOPIC_PARTITIONS.key(), "2")
        .set(EngineSettings.REVOKE_DELAY.key(), "1s")
        .set(EngineSettings.REVOKE_CHECK_INTERVAL.key(), "200ms")
        .set(EngineSettings.SHUTDOWN_TIMEOUT.key(), "10s")
        .build();
  }

  private static String annotation(
      final MockCluster mock, final String namespace, final String group) {
    final Map<String, String> annotations =
        mock.quotas().inNamespace(namespace).withName(group).get().getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(QuotaStatus.RUNTIME_ANNOTATION);
  }

  /** The runtime annotation as the engine's latest record for the group says it should read. */
  private static String runtimeAnnotationOf(
      final TopicReader<QuotaKey, GroupRuntime> runtimes, final String group) {
    final GroupRuntime latest =
        runtimes.read(key -> key.getName().equals(group)).stream()
            .reduce((first, second) -> second)
            .flatMap(entry -> entry.value())
            .orElseThrow();
    return QuotaStatus.of(latest).runtime();
  }
}
