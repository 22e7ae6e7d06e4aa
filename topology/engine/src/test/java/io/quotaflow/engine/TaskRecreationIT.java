package io.quotaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.engine.metrics.EngineMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
  // One cluster: the other tasks have nothing to read, so the consumer's poll after the failure
  // waits for the rebalance Kafka Streams enforces, which then completes before the revived task is
  // initialised (the defect's window).
  private static final List<String> ONE_CLUSTER = List.of("east");

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
          .untilAsserted(() -> HeldState.assertQueriesMatch(engine, inputs.model(), CLUSTERS));

      final long initialised = HeldState.rebuilds(engine);
      CrashInjector.corruptNextTask(instances.applicationId());
      churn.send(inputs, 100);
      inputs.flush();
      await()
          .atMost(EngineInstances.timeout())
          .untilAsserted(() -> assertThat(HeldState.rebuilds(engine)).isGreaterThan(initialised));

      // Recreated, it holds every cluster and computes the inputs that arrive after.
      churn.send(inputs, 100);
      inputs.flush();
      await()
          .atMost(EngineInstances.timeout())
          .untilAsserted(() -> HeldState.assertQueriesMatch(engine, inputs.model(), CLUSTERS));
    }
  }

  /**
   * Issue 40.7: the task fails at the first record of a batch its consumer has fetched whole. Kafka
   * Streams 4.3.1 replaces the revived task by a new one that reads on from the consumer's fetch
   * position, past the rest of the batch (docs/upstream/kafka-streams-revived-task-skips-fetched-
   * records.md); nothing is sent after, so a record skipped is lost for good. The engine finds the
   * gap at the new task's first record, its stream thread rejoins, and reads from the committed
   * offset.
   */
  @Test
  void aTaskCorruptedWithABatchFetchedReadsTheWholeBatchAfterItsRecreation(
      final EmbeddedKafkaBroker broker) {
    try (EngineInstances instances =
            new EngineInstances(broker.bootstrapServers(), CrashInjector.installedIn(Map.of()));
        KafkaInputs inputs = new KafkaInputs(broker.bootstrapServers(), instances.topics())) {
      final Engine engine = instances.start(EngineInstances.stateDir(), Map.of());
      final Workload churn = new Workload(7, ONE_CLUSTER);
      churn.send(inputs, 200);
      inputs.flush();
      await()
          .atMost(EngineInstances.timeout())
          .untilAsserted(() -> HeldState.assertQueriesMatch(engine, inputs.model(), ONE_CLUSTER));

      final long initialised = HeldState.rebuilds(engine);
      CrashInjector.corruptNextTask(instances.applicationId());
      final int sent = churn.send(inputs, 200);
      inputs.flush();
      final long corrupted = System.nanoTime();
      await()
          .atMost(EngineInstances.timeout())
          .untilAsserted(() -> assertThat(HeldState.rebuilds(engine)).isGreaterThan(initialised));

      await()
          .atMost(EngineInstances.timeout())
          .untilAsserted(() -> HeldState.assertQueriesMatch(engine, inputs.model(), ONE_CLUSTER));
      System.out.printf(
          "%d events after the corruption; trees matched after %d ms; inputs.skipped: %.0f%n",
          sent,
          Duration.ofNanos(System.nanoTime() - corrupted).toMillis(),
          engine.metrics().registry().get(EngineMetrics.INPUTS_SKIPPED).counter().count());
    }
  }
}
