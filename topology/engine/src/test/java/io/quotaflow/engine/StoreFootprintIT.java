package io.quotaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.memory.StoreFootprint;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Each store's bytes are exported, measured from the changelog partitions this instance's tasks
 * hold: the input store on the heap and the history in RocksDB both grow with the inputs, and the
 * heap stores' share of the heap is the heap stores' bytes alone.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class StoreFootprintIT {
  private static final List<String> CLUSTERS = List.of("east", "west");

  @Test
  void everyStoresBytesAreMeasuredFromItsChangelog(final EmbeddedKafkaBroker broker) {
    final MeterRegistry registry = new SimpleMeterRegistry();
    try (EngineInstances instances = new EngineInstances(broker.bootstrapServers(), Map.of())) {
      final Engine engine =
          instances.start(
              instances.config(
                  EngineInstances.stateDir(),
                  Map.of(
                      EngineSettings.HISTORY_STORES.key(), "rocksdb",
                      EngineSettings.METRICS_STORE_BYTES_INTERVAL.key(), "500ms")),
              registry);
      try (KafkaInputs inputs = new KafkaInputs(broker.bootstrapServers(), instances.topics());
          KafkaOutputs outputs = new KafkaOutputs(broker.bootstrapServers(), instances.topics())) {
        new Workload(7, CLUSTERS).send(inputs, 200);
        await()
            .atMost(EngineInstances.timeout())
            .untilAsserted(() -> outputs.poll().assertTablesMatch(inputs.model(), CLUSTERS));

        await()
            .atMost(Duration.ofSeconds(30))
            .untilAsserted(
                () -> {
                  assertThat(bytes(registry, TopologyNames.CLUSTER_INPUTS_STORE, "heap"))
                      .isPositive();
                  assertThat(
                          bytes(
                              registry,
                              TopologyNames.historyStore(Duration.ofMinutes(1)),
                              "rocksdb"))
                      .isPositive();
                });
        assertThat(registry.get(StoreFootprint.HEAP_SHARE).gauge().value()).isPositive();
      }
      assertThat(engine.streams().state().isRunningOrRebalancing()).isTrue();
    }
  }

  private static double bytes(
      final MeterRegistry registry, final String store, final String where) {
    return registry
        .get(StoreFootprint.STORE_BYTES)
        .tag("store", store)
        .tag("where", where)
        .gauge()
        .value();
  }
}
