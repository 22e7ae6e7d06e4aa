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
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionOutcome;
import io.quotaflow.schemas.EvictionResult;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.source.KubeSource;
import io.quotaflow.source.SourceSettings;
import io.quotaflow.topics.TopicCatalogue;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disruption budget refuses a pod's first eviction (the mock API server answers 429, as a real
 * one does under a PodDisruptionBudget); the executor reports BLOCKED_BY_BUDGET, the engine reads
 * the result back and, after its retry backoff, commands the pod again as attempt 2, which the API
 * server accepts. The engine is restarted on its state directory while the pod waits for its retry:
 * still exactly one command per attempt.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class EvictionRetryIT {

  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path stateDir;

  @Test
  void anEvictionBlockedByADisruptionBudgetIsRetriedAfterTheBackoffAndThenSucceeds(
      final EmbeddedKafkaBroker broker) {
    final String id = UUID.randomUUID().toString().substring(0, 8);
    final TopicCatalogue topics = TestTopics.provision(broker);
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (MockCluster mock = MockCluster.start("east")) {
      final String namespace = MockCluster.uniqueNamespace("retry");
      // team-a borrows team-b's idle guarantee: 6 of 10 cpu in use, a-2 the less important pod.
      mock.client().resource(node("node-" + id).allocatable("cpu", "10").build()).create();
      mock.quotas()
          .resource(quota(namespace, "team-a").min("cpu", "2").max("cpu", "10").build())
          .create();
      mock.quotas()
          .resource(quota(namespace, "team-b").min("cpu", "8").max("cpu", "10").build())
          .create();
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
      final EvictionEndpoint eviction =
          EvictionEndpoint.of(mock, namespace, "a-2").refuses(1).accepts();

      try (KubeSource source =
              new KubeSource(
                  List.of(mock.cluster()),
                  topics,
                  TestTopics.kafka(broker),
                  SourceSettings.defaults(),
                  registry);
          EvictionExecutor executor =
              new EvictionExecutor(
                  List.of(mock.cluster()),
                  topics,
                  TestTopics.kafka(broker),
                  // One request per command: the 429 is the command's result.
                  new EvictionSettings(
                      false,
                      1,
                      Duration.ZERO,
                      Duration.ZERO,
                      5.0,
                      10,
                      "evict-" + id,
                      Duration.ofMinutes(10)),
                  Clock.systemUTC(),
                  Sleeper.SYSTEM,
                  registry);
          TopicReader<PodKey, EvictionCommand> commands =
              new TopicReader<>(broker, topics.evictions());
          TopicReader<PodKey, EvictionResult> results =
              new TopicReader<>(broker, topics.evictionResults())) {
        source.start().orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
        executor.start();
        Engine engine = startEngine(broker, topics, id, registry);
        try {
          // team-b wants its guarantee back: team-a's runtime falls to 2, below its 6 in use.
          mock.client()
              .resource(pod(namespace, "b-1").quota("team-b").request("cpu", "8").build())
              .create();

          await()
              .atMost(WAIT)
              .until(() -> outcomes(results).contains(EvictionOutcome.BLOCKED_BY_BUDGET));
          assertThat(mock.client().pods().inNamespace(namespace).withName("a-2").get())
              .as("refused by the budget")
              .isNotNull();
          // Restarted while a-2 waits out its backoff (5 s).
          engine.close();
          engine = startEngine(broker, topics, id, registry);

          await()
              .atMost(WAIT)
              .until(
                  () -> mock.client().pods().inNamespace(namespace).withName("a-2").get() == null);
          await()
              .atMost(WAIT)
              .until(
                  () ->
                      outcomes(results)
                          .equals(
                              List.of(EvictionOutcome.BLOCKED_BY_BUDGET, EvictionOutcome.EVICTED)));
          final List<EvictionCommand> issued =
              commands.read().stream().flatMap(entry -> entry.value().stream()).toList();
          assertThat(issued)
              .extracting(EvictionCommand::getAttempt)
              .as("one command per attempt")
              .containsExactly(1, 2);
          assertThat(issued).extracting(EvictionCommand::getId).doesNotHaveDuplicates();
          assertThat(Duration.between(issued.get(0).getIssuedAt(), issued.get(1).getIssuedAt()))
              .as("the second attempt waited out the backoff")
              .isGreaterThanOrEqualTo(Duration.ofSeconds(5));
          assertThat(eviction.requests()).hasSize(2);
          assertThat(mock.client().pods().inNamespace(namespace).withName("a-1").get())
              .as("the more important pod stays")
              .isNotNull();
          assertThat(
                  registry
                      .get("quotaflow.engine.evictions.retried")
                      .tag("cluster", "east")
                      .counter()
                      .count())
              .isEqualTo(1.0);
        } finally {
          engine.close();
        }
      }
    }
  }

  private Engine startEngine(
      final EmbeddedKafkaBroker broker,
      final TopicCatalogue topics,
      final String id,
      final SimpleMeterRegistry registry) {
    final Engine engine =
        new Engine(
            EngineConfig.builder()
                .set(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers())
                .set(StreamsConfig.APPLICATION_ID_CONFIG, "quotaflow-retry-" + id)
                .set(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString())
                .set(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "100")
                .set(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0")
                .set(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), "6000")
                .set(
                    StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG),
                    "500")
                .set(EngineSettings.TOPIC_PREFIX.key(), topics.prefix())
                .set(EngineSettings.TOPIC_PARTITIONS.key(), "2")
                .set(EngineSettings.REVOKE_DELAY.key(), "1s")
                .set(EngineSettings.REVOKE_CHECK_INTERVAL.key(), "200ms")
                .set(EngineSettings.REVOKE_RETRY_BACKOFF.key(), "5s")
                .set(EngineSettings.SHUTDOWN_TIMEOUT.key(), "10s")
                .build(),
            registry);
    engine.start();
    await().atMost(WAIT).until(() -> engine.streams().state() == KafkaStreams.State.RUNNING);
    return engine;
  }

  private static List<EvictionOutcome> outcomes(final TopicReader<PodKey, EvictionResult> results) {
    return results.read().stream()
        .flatMap(entry -> entry.value().stream())
        .map(EvictionResult::getOutcome)
        .toList();
  }
}
