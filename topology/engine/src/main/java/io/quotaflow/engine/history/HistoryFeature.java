package io.quotaflow.engine.history;

import io.quotaflow.engine.TopologyNames;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.engine.store.StoreKind;
import io.quotaflow.engine.task.ClusterFeature;
import io.quotaflow.engine.task.ClusterTask;
import io.quotaflow.history.HistoryTiers;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.PodDenial;
import io.quotaflow.schemas.internal.ClusterEvent;
import io.quotaflow.schemas.internal.ClusterEventKind;
import io.quotaflow.schemas.internal.GroupHistoryWindow;
import io.quotaflow.serde.AvroSerde;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;

/**
 * The groups' history (docs/semantics.md section 23) as a feature of the cluster's task: every
 * runtime record written, every eviction and every denial is noted in the window of its time, in
 * two tiers of window stores. Without {@code history.enabled} it owns no store and notes nothing
 * (denials are still the task's to drop: nothing else reads them).
 */
public final class HistoryFeature implements ClusterFeature {
  private final Optional<HistoryTiers> tiers;
  private final StoreKind kind;
  private Optional<TieredHistory> history = Optional.empty();
  private KeyValueStore<GroupId, GroupRuntime> runtimes;

  /** The history {@code config} asks for, in stores of {@code kind} ({@code history.stores}). */
  public HistoryFeature(final EngineConfig config, final StoreKind kind) {
    this.tiers = HistoryConfig.tiers(config);
    this.kind = kind;
  }

  /** The history's two window stores (fine and coarse tier), when it is kept. */
  @Override
  public Set<StoreBuilder<?>> stores() {
    final Set<StoreBuilder<?>> stores = new LinkedHashSet<>();
    tiers.ifPresent(
        kept -> {
          stores.add(storeBuilder(kind, kept.fineStep(), kept.fineKept()));
          stores.add(storeBuilder(kind, kept.coarseStep(), kept.retention()));
        });
    return stores;
  }

  /** The builder of one tier's window store, changelogged as the processor's other stores. */
  public static StoreBuilder<WindowStore<GroupId, GroupHistoryWindow>> storeBuilder(
      final StoreKind kind, final Duration step, final Duration retention) {
    return Stores.windowStoreBuilder(
        kind.windowSupplier(TopologyNames.historyStore(step), retention, step),
        GroupId.serde(),
        AvroSerde.forValues(GroupHistoryWindow.class));
  }

  @Override
  public void init(final ClusterTask task) {
    runtimes = task.context().getStateStore(TopologyNames.RUNTIME_STORE);
    history = tiers.map(kept -> TieredHistory.of(task.context()::getStateStore, kept));
  }

  /** A denial is no input of the trees: a pod the admission plugin turned away, for the history. */
  @Override
  public boolean offered(final Record<String, ClusterEvent> record, final long now) {
    final ClusterEvent event = record.value();
    if (event.getKind() != ClusterEventKind.DENIAL) {
      return false;
    }
    event.getDenial().ifPresent(denial -> denied(record.key(), denial));
    return true;
  }

  @Override
  public void runtimeWritten(
      final GroupId group,
      final Instant at,
      final Supplier<GroupRuntime> before,
      final GroupRuntime after) {
    history.ifPresent(
        keeper ->
            keeper.changed(
                group,
                at,
                () -> HistoryRecords.levels(before.get()),
                HistoryRecords.levels(after)));
  }

  /** Counts an eviction of a pod of {@code group} in its history, for {@code reason}. */
  public void evicted(final GroupId group, final Instant at, final String reason) {
    history.ifPresent(
        keeper ->
            keeper.evicted(group, at, () -> HistoryRecords.levels(runtimes.get(group)), reason));
  }

  /** Counts {@code denial} in its group's history, in the window of its decision. */
  private void denied(final String cluster, final PodDenial denial) {
    history.ifPresent(
        keeper -> {
          final GroupId group = new GroupId(cluster, denial.getGroup());
          keeper.denied(
              group,
              denial.getAt(),
              () -> HistoryRecords.levels(runtimes.get(group)),
              denial.getReasonCode());
        });
  }
}
