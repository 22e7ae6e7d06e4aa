package io.quotaflow.engine;

import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.fairshare.FairShareFeature;
import io.quotaflow.engine.freshness.FreshnessFeature;
import io.quotaflow.engine.history.HistoryFeature;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.reclaim.ReclaimFeature;
import io.quotaflow.engine.reservation.ReservationFeature;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.engine.store.GroupPodId;
import io.quotaflow.engine.store.InputId;
import io.quotaflow.engine.store.StoreKind;
import io.quotaflow.engine.task.ClusterFeature;
import io.quotaflow.engine.writers.WritersFeature;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The registration of the features of a cluster's task ({@link ClusterFeature}), and so of every
 * store of the cluster-quota processor: the trees' own three and each feature's. A new feature is a
 * class and one line in {@link #create}.
 */
final class ClusterFeatures {
  private ClusterFeatures() {}

  /**
   * The features of one task, in the order their hooks run: eviction results and denials are taken
   * before the writers judge a record and markers are noted after; the punctuations are scheduled
   * in this order too.
   *
   * @param state the kind of the key-value stores ({@code state.stores})
   * @param history the kind of the history's window stores ({@code history.stores})
   */
  static List<ClusterFeature> create(
      final EngineConfig config,
      final EngineMetrics metrics,
      final StoreKind state,
      final StoreKind history) {
    final HistoryFeature groupHistory = new HistoryFeature(config, history);
    final FreshnessFeature freshness = new FreshnessFeature(config, state);
    final ReservationFeature reservations = new ReservationFeature(config, metrics, state);
    return List.of(
        new ReclaimFeature(config, metrics, state, groupHistory, freshness, reservations),
        groupHistory,
        new WritersFeature(config, state),
        reservations,
        freshness,
        new FairShareFeature(config, state));
  }

  /** The features of one task, their stores of the kinds {@code config} names. */
  static List<ClusterFeature> create(final EngineConfig config, final EngineMetrics metrics) {
    return create(
        config,
        metrics,
        config.get(EngineSettings.STATE_STORES),
        config.get(EngineSettings.HISTORY_STORES));
  }

  /**
   * Every store of the cluster-quota processor: the trees' inputs, runtimes and pod assignments
   * (key-value stores of {@code state}), then each feature's, in registration order.
   */
  static Set<StoreBuilder<?>> stores(final List<ClusterFeature> features, final StoreKind state) {
    final Set<StoreBuilder<?>> stores = new LinkedHashSet<>();
    stores.add(
        Stores.keyValueStoreBuilder(
            state.supplier(TopologyNames.CLUSTER_INPUTS_STORE),
            InputId.serde(),
            EngineSerdes.EVENTS));
    stores.add(
        Stores.keyValueStoreBuilder(
            state.supplier(TopologyNames.RUNTIME_STORE), GroupId.serde(), EngineSerdes.RUNTIMES));
    stores.add(
        Stores.keyValueStoreBuilder(
            state.supplier(TopologyNames.POD_ASSIGNMENTS_STORE),
            GroupPodId.serde(),
            EngineSerdes.CLASSES));
    features.forEach(feature -> stores.addAll(feature.stores()));
    return stores;
  }

  /** The names of {@link #stores}. */
  static List<String> storeNames(final List<ClusterFeature> features) {
    return stores(features, StoreKind.IN_MEMORY).stream().map(StoreBuilder::name).toList();
  }
}
