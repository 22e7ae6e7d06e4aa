package io.quotaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaOptions;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A task that Kafka Streams closes dirty and re-creates (a TaskCorruptedException: a commit that
 * timed out, a fenced producer) comes back holding every cluster it held, as a clean restart does,
 * and goes on computing them.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class TaskRecreationIT {
  private static final List<String> CLUSTERS = List.of("east", "west", "north");

  @Test
  void aCorruptedTaskIsRecreatedHoldingItsClusters(final EmbeddedKafkaBroker broker) {
    try (EngineInstances instances =
            new EngineInstances(broker.bootstrapServers(), CrashInjector.installedIn(Map.of()));
        KafkaInputs inputs = new KafkaInputs(broker.bootstrapServers(), instances.topics())) {
      final Engine engine = instances.start(EngineInstances.stateDir(), Map.of());
      final Workload churn = new Workload(5, CLUSTERS);
      churn.send(inputs, 300);
      inputs.flush();
      await()
          .atMost(EngineInstances.timeout())
          .untilAsserted(() -> assertQueriesMatch(engine, inputs.model()));

      final long initialised = rebuilds(engine);
      CrashInjector.corruptNextTask(instances.applicationId());
      churn.send(inputs, 100);
      inputs.flush();
      await()
          .atMost(EngineInstances.timeout())
          .untilAsserted(() -> assertThat(rebuilds(engine)).isGreaterThan(initialised));

      // Recreated, it holds every cluster and computes the inputs that arrive after.
      churn.send(inputs, 100);
      inputs.flush();
      await()
          .atMost(EngineInstances.timeout())
          .untilAsserted(() -> assertQueriesMatch(engine, inputs.model()));
    }
  }

  /** How many times a task of {@code engine} rebuilt its trees from its stores. */
  private static long rebuilds(final Engine engine) {
    return engine.metrics().registry().get(EngineMetrics.REBUILD_TIME).timer().count();
  }

  /** Every cluster's tree, as the engine's stores answer queries, equals the core's computation. */
  private static void assertQueriesMatch(final Engine engine, final InputModel model) {
    assertThat(EngineInstances.running(engine)).isTrue();
    for (final String cluster : CLUSTERS) {
      final Map<String, GroupStatus> queried = new TreeMap<>();
      engine.queries().tree(cluster).forEach(group -> queried.put(group.name(), group));
      assertThat(queried).as(cluster).isEqualTo(model.expected(cluster, QuotaOptions.DEFAULTS));
    }
  }
}
