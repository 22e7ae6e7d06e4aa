package io.quotaflow.engine.fairshare;

import io.quotaflow.engine.TopologyNames;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.history.HistoryConfig;
import io.quotaflow.engine.history.HistoryRecords;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.engine.store.StoreKind;
import io.quotaflow.engine.task.ClusterFeature;
import io.quotaflow.engine.task.ClusterTask;
import io.quotaflow.engine.task.ClusterTree;
import io.quotaflow.fairshare.HalfLife;
import io.quotaflow.history.HistoryTiers;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.internal.FairShareMemory;
import io.quotaflow.serde.AvroSerde;
import java.time.Instant;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Fair share with memory (docs/semantics.md section 24) as a feature of the cluster's task: at each
 * history step it folds the windows that closed into every group's decayed borrowing and hands each
 * tree its groups' averages; the trees whose averages changed are recomputed at the next tick. Off
 * (no {@code fairshare.memory.enabled}), it owns no store and does nothing.
 */
public final class FairShareFeature implements ClusterFeature {
  private final Optional<HalfLife> halfLife;
  private final Optional<HistoryTiers> tiers;
  private final StoreKind kind;
  private ClusterTask task;
  private PastUsageKeeper pastUsage;

  /** Fair share's memory as {@code config} sets it, its store of {@code kind}. */
  public FairShareFeature(final EngineConfig config, final StoreKind kind) {
    this.halfLife = FairShareConfig.halfLife(config);
    this.tiers = HistoryConfig.tiers(config);
    this.kind = kind;
  }

  /** The memory's store, only when fair share's memory is on. */
  @Override
  public Set<StoreBuilder<?>> stores() {
    return halfLife.isPresent() ? Set.of(storeBuilder(kind)) : Set.of();
  }

  /** The builder of fair share's memory store, changelogged as the processor's others. */
  public static StoreBuilder<KeyValueStore<GroupId, FairShareMemory>> storeBuilder(
      final StoreKind kind) {
    return Stores.keyValueStoreBuilder(
        kind.supplier(TopologyNames.FAIRSHARE_MEMORY_STORE),
        GroupId.serde(),
        AvroSerde.forValues(FairShareMemory.class));
  }

  @Override
  public void init(final ClusterTask task) {
    this.task = task;
    this.pastUsage =
        halfLife
            .map(
                decay ->
                    new PastUsageKeeper(
                        task.context().getStateStore(TopologyNames.FAIRSHARE_MEMORY_STORE),
                        task.context()
                            .getStateStore(
                                TopologyNames.historyStore(tiers.orElseThrow().fineStep())),
                        decay,
                        tiers.orElseThrow().fineRetention()))
            .orElse(null);
  }

  /** Hands each rebuilt tree its groups' decayed borrowing as last folded. */
  @Override
  public void restored() {
    if (pastUsage == null) {
      return;
    }
    pastUsage
        .averages()
        .forEach(
            (group, average) ->
                task.treeOfGroup(group)
                    .ifPresent(tree -> tree.state().putPastUsage(group.name(), average)));
  }

  @Override
  public void schedule(final ClusterTask task) {
    if (pastUsage != null) {
      task.schedule(tiers.orElseThrow().fineStep(), this::fold);
    }
  }

  private void fold(final long timestamp) {
    final Instant now = Instant.ofEpochMilli(timestamp);
    final KeyValueStore<GroupId, GroupRuntime> runtime =
        task.context().getStateStore(TopologyNames.RUNTIME_STORE);
    final Set<GroupId> folded = new HashSet<>();
    for (final ClusterTree tree : task.trees()) {
      if (task.metrics().quarantine().isQuarantined(tree.cluster())) {
        continue;
      }
      for (final String name : tree.groups()) {
        if (SpecialGroups.ROOT.equals(name) || SpecialGroups.isSpecial(name)) {
          continue;
        }
        final GroupId group = new GroupId(tree.cluster(), name);
        folded.add(group);
        final ResourceList average =
            pastUsage.fold(group, now, () -> HistoryRecords.levels(runtime.get(group)));
        if (!average.equals(tree.state().pastUsage(name))) {
          tree.state().putPastUsage(name, average);
          task.markDirty(tree.key());
        }
      }
    }
    pastUsage.foldOthers(folded, now);
  }
}
