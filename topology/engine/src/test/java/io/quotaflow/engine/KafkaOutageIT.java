package io.quotaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.metrics.EngineMetrics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The engine through a Kafka outage longer than its transaction timeout, inputs arriving throughout
 * (issue 31): the broker is stopped while the engine is inside a transaction and started again on
 * the same data and port. The commit times out, Kafka Streams closes the task dirty and re-creates
 * it, and the re-created task waits for its changelogs past the commit interval. It must come back
 * holding every cluster, and the instance must not claim to be healthy while it cannot commit.
 *
 * <p>Clients time out after 5 s here instead of 60 s, so the same sequence takes 25 s of outage
 * instead of three minutes.
 */
@Tag("fault")
class KafkaOutageIT {
  private static final List<String> CLUSTERS = List.of("east", "west", "north");
  private static final Duration OUTAGE = Duration.ofSeconds(25);
  private static final Map<String, String> SHORT_CLIENT_TIMEOUTS =
      Map.of(
          StreamsConfig.producerPrefix(ProducerConfig.MAX_BLOCK_MS_CONFIG), "5000",
          StreamsConfig.adminClientPrefix(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG), "5000",
          StreamsConfig.adminClientPrefix(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG), "4000",
          EngineSettings.HEALTH_CHECK_INTERVAL.key(), "500ms",
          EngineSettings.REVOKE_DELAY.key(), "1s",
          EngineSettings.REVOKE_CHECK_INTERVAL.key(), "200ms",
          EngineSettings.REVOKE_RETRY_BACKOFF.key(), "1s",
          EngineSettings.REVOKE_MAX_ATTEMPTS.key(), "1000");

  @Test
  void afterAnOutageEveryClusterIsHeldAndComputedAndTheOutageWasReported() throws Exception {
    final Path data = Files.createTempDirectory("quotaflow-outage-broker");
    EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().dataDir(data).build().start();
    final int port = broker.port();
    try (EngineInstances instances =
            new EngineInstances(broker.bootstrapServers(), SHORT_CLIENT_TIMEOUTS);
        KafkaInputs inputs = new KafkaInputs(broker.bootstrapServers(), instances.topics())) {
      final Engine engine = instances.start(EngineInstances.stateDir(), Map.of());
      final Workload churn = new Workload(5, CLUSTERS);
      CLUSTERS.forEach(cluster -> DepartmentReclaimScene.put(inputs, cluster));
      churn.send(inputs, 300);
      CLUSTERS.forEach(cluster -> DepartmentReclaimScene.teamBClaimsItsMin(inputs, cluster));
      inputs.flush();
      try (KafkaOutputs outputs = new KafkaOutputs(broker.bootstrapServers(), instances.topics())) {
        await()
            .atMost(EngineInstances.timeout())
            .until(() -> outputs.poll().evictions().size() > CLUSTERS.size() * 4);
      }
      await()
          .atMost(EngineInstances.timeout())
          .untilAsserted(() -> HeldState.assertQueriesMatch(engine, inputs.model(), CLUSTERS));
      assertThat(engine.problem()).isEmpty();
      final long rebuilds = HeldState.rebuilds(engine);

      broker.close();
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(() -> assertThat(engine.problem()).isPresent());
      sleep(OUTAGE);
      assertThat(engine.problem()).as("still unable to commit").isPresent();
      assertThat(EngineInstances.running(engine)).as("the instance survives").isTrue();

      broker = EmbeddedKafkaBroker.builder().dataDir(data).port(port).build().start();
      inputs.flush();
      // The re-created task restores first: its stores answer once it has, not before.
      await()
          .atMost(Duration.ofSeconds(30))
          .ignoreExceptionsInstanceOf(InvalidStateStoreException.class)
          .untilAsserted(
              () -> {
                HeldState.assertQueriesMatch(engine, inputs.model(), CLUSTERS);
                assertThat(engine.problem()).isEmpty();
              });
      // What the processors hold, not only what the stores answer: later inputs are computed.
      churn.send(inputs, 50);
      inputs.flush();
      await()
          .atMost(Duration.ofSeconds(30))
          .ignoreExceptionsInstanceOf(InvalidStateStoreException.class)
          .untilAsserted(() -> HeldState.assertQueriesMatch(engine, inputs.model(), CLUSTERS));
      assertThat(HeldState.rebuilds(engine)).as("the task was re-created").isGreaterThan(rebuilds);
      assertThat(
              engine.metrics().clustersByTask().values().stream().mapToInt(Integer::intValue).sum())
          .as("clusters held by the tasks")
          .isEqualTo(CLUSTERS.size());
      assertThat(
              engine
                  .metrics()
                  .registry()
                  .get(EngineMetrics.TASKS_EMPTY_WITH_INPUTS)
                  .gauge()
                  .value())
          .isZero();
    } finally {
      broker.close();
    }
  }

  private static void sleep(final Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
