package io.quotaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
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
}
