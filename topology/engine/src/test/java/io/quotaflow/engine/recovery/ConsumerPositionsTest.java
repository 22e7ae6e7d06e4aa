package io.quotaflow.engine.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.engine.QuotaTopology;
import io.quotaflow.engine.TopologyNames;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.metrics.EngineMetrics;
import java.util.Set;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/** The partitions whose positions are checked: every topic the cluster-quota tasks read. */
class ConsumerPositionsTest {
  @Test
  void theClusterQuotaTasksReadEveryInputAndTheResultsRepartitionTopic() {
    final EngineConfig config =
        EngineConfig.builder().set(StreamsConfig.APPLICATION_ID_CONFIG, "app").build();

    final Set<String> inputs = inputsOf(config);

    assertThat(inputs)
        .contains(
            config.topics().pods().name(),
            config.topics().quotas().name(),
            config.topics().nodes().name(),
            config.topics().resourceSlices().name(),
            "app-" + TopologyNames.EVICTION_RESULTS_BY_CLUSTER + "-repartition")
        .doesNotContain(config.topics().evictionResults().name(), config.topics().denials().name())
        .hasSize(10);
  }

  @Test
  void withInputsPlacedByKeyTheyReadTheClusterEventsRepartitionTopic() {
    final EngineConfig config =
        EngineConfig.builder()
            .set(StreamsConfig.APPLICATION_ID_CONFIG, "app")
            .set(EngineSettings.INPUTS_PARTITIONED_BY_CLUSTER.key(), "false")
            .build();

    assertThat(inputsOf(config))
        .containsExactly("app-" + TopologyNames.CLUSTER_EVENTS + "-repartition");
  }

  private static Set<String> inputsOf(final EngineConfig config) {
    return ConsumerPositions.inputsOf(
        QuotaTopology.build(
                config.topics(), config, new EngineMetrics(new SimpleMeterRegistry(), 100))
            .describe(),
        TopologyNames.CLUSTER_QUOTA,
        "app");
  }
}
