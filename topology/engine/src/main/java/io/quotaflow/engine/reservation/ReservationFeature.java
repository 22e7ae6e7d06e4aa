package io.quotaflow.engine.reservation;

import io.quotaflow.engine.TopologyNames;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.reclaim.Reclaimer;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.engine.store.InputId;
import io.quotaflow.engine.store.InputId.InputKind;
import io.quotaflow.engine.store.PodId;
import io.quotaflow.engine.store.StoreKind;
import io.quotaflow.engine.task.ClusterFeature;
import io.quotaflow.engine.task.ClusterTask;
import io.quotaflow.engine.task.ClusterTree;
import io.quotaflow.engine.task.TreeKey;
import io.quotaflow.profile.QuotaTrees;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.schemas.GroupReservation;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.serde.AvroSerde;
import io.quotaflow.tree.QuotaOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Node reservations (docs/semantics.md section 15) as a feature of the cluster's task: planned over
 * each cluster's default tree after its recomputation and at every relock, their state carried in
 * the groups' runtime records, and the pods of other groups on a Guaranteed lock evicted by the
 * reclaim check ({@link #reclaim}).
 */
public final class ReservationFeature implements ClusterFeature {
  private final QuotaOptions options;
  private final Duration revokeDelay;
  private final Duration relockInterval;
  private final EngineMetrics metrics;
  private final StoreKind kind;
  private ClusterTask task;
  private ReservationKeeper keeper;

  /** Reservations as {@code config} sets them, their stores of {@code kind}. */
  public ReservationFeature(
      final EngineConfig config, final EngineMetrics metrics, final StoreKind kind) {
    this.options = config.quotaOptions();
    this.revokeDelay = config.get(EngineSettings.REVOKE_DELAY);
    this.relockInterval = config.get(EngineSettings.RESERVATION_RELOCK_INTERVAL);
    this.metrics = metrics;
    this.kind = kind;
  }

  /** The reservations as last planned, and since when each intruder has been on a lock. */
  @Override
  public Set<StoreBuilder<?>> stores() {
    final Set<StoreBuilder<?>> stores = new LinkedHashSet<>();
    stores.add(
        Stores.keyValueStoreBuilder(
            kind.supplier(TopologyNames.RESERVATIONS_STORE),
            GroupId.serde(),
            AvroSerde.forValues(GroupReservation.class)));
    stores.add(
        Stores.keyValueStoreBuilder(
            kind.supplier(TopologyNames.RESERVATION_INTRUDERS_SINCE_STORE),
            PodId.serde(),
            Serdes.Long()));
    return stores;
  }

  @Override
  public void init(final ClusterTask task) {
    this.task = task;
    this.keeper =
        new ReservationKeeper(
            task.context().getStateStore(TopologyNames.RESERVATIONS_STORE),
            task.context().getStateStore(TopologyNames.RESERVATION_INTRUDERS_SINCE_STORE),
            options,
            revokeDelay,
            metrics);
  }

  /** Reservations are planned over the default tree, with the cluster's stored group specs. */
  @Override
  public void treeRestored(final ClusterTree tree, final List<QuotaGroup> groups) {
    if (QuotaTrees.DEFAULT_TREE.equals(tree.tree())) {
      keeper.restore(tree.cluster(), tree.state(), groups);
    }
  }

  @Override
  public void schedule(final ClusterTask task) {
    task.schedule(relockInterval, this::relock);
  }

  /** The design's relock: every followed cluster's reservations are planned at its next tick. */
  private void relock(final long timestamp) {
    for (final String cluster : keeper.clusters()) {
      keeper.relock(cluster);
      task.markDirty(new TreeKey(cluster, QuotaTrees.DEFAULT_TREE));
    }
  }

  @Override
  public void inputChanged(final String cluster, final InputId id, final Object value) {
    if (id.kind() != InputKind.PROFILE) {
      // Node reservations are planned over the default tree (docs/semantics.md section 15).
      keeper.inputChanged(cluster, task.defaultTree(cluster).state(), id, value);
    }
  }

  /** Plans the default tree's reservations when due; the groups whose reservation changed. */
  @Override
  public Set<String> recomputed(final ClusterTree tree, final Instant now) {
    return QuotaTrees.DEFAULT_TREE.equals(tree.tree())
        ? keeper.afterRecompute(tree.cluster(), tree.state(), now).keySet()
        : Set.of();
  }

  @Override
  public void completeRuntime(final GroupId group, final GroupRuntime.Builder record) {
    record.setReservation(keeper.record(group.cluster(), group.name()));
  }

  /** The reclaim check of {@code tree}'s Guaranteed reservations (default tree only). */
  public void reclaim(final ClusterTree tree, final Instant now, final Reclaimer reclaimer) {
    if (QuotaTrees.DEFAULT_TREE.equals(tree.tree())) {
      keeper.reclaim(tree.cluster(), tree.state(), now, reclaimer);
    }
  }
}
