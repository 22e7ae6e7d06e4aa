package io.quotaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.config.QuotaSettings;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.HistorySettings;
import io.quotaflow.engine.history.HistoryConfig;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.store.StoreKind;
import io.quotaflow.engine.task.ClusterFeature;
import java.util.List;
import org.apache.kafka.streams.state.StoreBuilder;
import org.junit.jupiter.api.Test;

/**
 * The features declare the stores of the cluster-quota processor: exactly the names {@link
 * TopologyNames} lists (they are users' state), each once, whatever the settings add.
 */
class ClusterFeaturesTest {

  @Test
  void theFeaturesDeclareExactlyTheProcessorsStoresAtTheDefaults() {
    final EngineConfig config = EngineConfig.defaults();

    assertThat(declared(config))
        .containsExactlyInAnyOrderElementsOf(
            TopologyNames.clusterQuotaStores(HistoryConfig.tiers(config), false));
  }

  @Test
  void fairShareMemoryDeclaresItsStoreOnlyWhenOn() {
    final EngineConfig config =
        EngineConfig.builder().set(QuotaSettings.FAIRSHARE_MEMORY_ENABLED.key(), "true").build();

    assertThat(declared(config))
        .containsExactlyInAnyOrderElementsOf(
            TopologyNames.clusterQuotaStores(HistoryConfig.tiers(config), true))
        .contains(TopologyNames.FAIRSHARE_MEMORY_STORE);
    assertThat(declared(EngineConfig.defaults()))
        .doesNotContain(TopologyNames.FAIRSHARE_MEMORY_STORE);
  }

  @Test
  void withoutHistoryNoHistoryStoreIsDeclared() {
    final EngineConfig config =
        EngineConfig.builder().set(HistorySettings.HISTORY_ENABLED.key(), "false").build();

    assertThat(declared(config)).noneMatch(TopologyNames::isHistoryStore);
    assertThat(declared(config))
        .containsExactlyInAnyOrderElementsOf(TopologyNames.CLUSTER_QUOTA_STORES);
  }

  @Test
  void theSupplierDeclaresTheSameStoresAsTheProcessorAudits() {
    final EngineConfig config = EngineConfig.defaults();
    final List<ClusterFeature> features =
        ClusterFeatures.create(config, EngineMetrics.discarding());

    assertThat(
            new ClusterQuotaSupplier(config, EngineMetrics.discarding(), null, null)
                .stores().stream().map(StoreBuilder::name))
        .containsExactlyElementsOf(ClusterFeatures.storeNames(features));
  }

  private static List<String> declared(final EngineConfig config) {
    final List<String> names =
        ClusterFeatures.stores(
                ClusterFeatures.create(
                    config, EngineMetrics.discarding(), StoreKind.IN_MEMORY, StoreKind.IN_MEMORY),
                StoreKind.IN_MEMORY)
            .stream()
            .map(StoreBuilder::name)
            .toList();
    assertThat(names).doesNotHaveDuplicates();
    return names;
  }
}
