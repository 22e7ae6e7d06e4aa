package io.quotaflow.engine;

import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;

/**
 * Every case of {@link RuntimeEmissionTest} with the topology for inputs placed by key ({@code
 * inputs.partitioned.by.cluster=false}): the inputs are re-keyed by cluster through the
 * cluster-events repartition topic, and the results are the same.
 */
class RepartitionedRuntimeEmissionTest extends RuntimeEmissionTest {
  @Override
  EngineConfig.Builder settings() {
    return super.settings().set(EngineSettings.INPUTS_PARTITIONED_BY_CLUSTER.key(), "false");
  }
}
