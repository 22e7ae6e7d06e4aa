package io.quotaflow.engine.reclaim;

import io.quotaflow.engine.TopologyNames;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.freshness.FreshnessFeature;
import io.quotaflow.engine.history.HistoryFeature;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.reservation.ReservationFeature;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.engine.store.InputId;
import io.quotaflow.engine.store.InputId.InputKind;
import io.quotaflow.engine.store.PodId;
import io.quotaflow.engine.store.StoreKind;
import io.quotaflow.engine.task.ClusterFeature;
import io.quotaflow.engine.task.ClusterTask;
import io.quotaflow.engine.task.ClusterTree;
import io.quotaflow.quota.PodRef;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.internal.ClusterEvent;
import io.quotaflow.schemas.internal.ClusterEventKind;
import io.quotaflow.serde.AvroSerde;
import io.quotaflow.tree.QuotaOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Reclaim as a feature of the cluster's task: on a wall-clock punctuator, over-used groups whose
 * inputs are fresh are reclaimed by eviction commands ({@link Reclaimer}), and so are pods of other
 * groups on a Guaranteed reservation's locked nodes; the executor's results tell the reclaimer what
 * became of each command. The over-use clocks of a cluster whose inputs are not trusted are paused.
 */
public final class ReclaimFeature implements ClusterFeature {
  private final boolean enabled;
  private final Duration checkInterval;
  private final ReclaimPolicy policy;
  private final QuotaOptions options;
  private final EngineMetrics metrics;
  private final StoreKind kind;
  private final HistoryFeature history;
  private final FreshnessFeature freshness;
  private final ReservationFeature reservations;
  private ClusterTask task;
  private Reclaimer reclaimer;
  // When reclaim last looked at the clusters: the over-use clocks of a cluster whose inputs are not
  // trusted are moved on by the time since, so that time does not count (they are paused).
  private long lastReclaimAt = -1;

  /**
   * Reclaim as {@code config} sets it, its stores of {@code kind}; evictions are counted in {@code
   * history}, judged by {@code freshness}, and {@code reservations}' intruders are reclaimed too.
   */
  public ReclaimFeature(
      final EngineConfig config,
      final EngineMetrics metrics,
      final StoreKind kind,
      final HistoryFeature history,
      final FreshnessFeature freshness,
      final ReservationFeature reservations) {
    this.enabled = config.get(EngineSettings.RECLAIM_ENABLED);
    this.checkInterval = config.get(EngineSettings.REVOKE_CHECK_INTERVAL);
    this.policy =
        new ReclaimPolicy(
            config.get(EngineSettings.REVOKE_DELAY),
            config.get(EngineSettings.REVOKE_RETRY_BACKOFF),
            config.get(EngineSettings.REVOKE_MAX_ATTEMPTS),
            config.get(EngineSettings.REVOKE_RESULT_TIMEOUT));
    this.options = config.quotaOptions();
    this.metrics = metrics;
    this.kind = kind;
    this.history = history;
    this.freshness = freshness;
    this.reservations = reservations;
  }

  /** Since when each group is over-used, the command issued per pod, and when to retry one. */
  @Override
  public Set<StoreBuilder<?>> stores() {
    final Set<StoreBuilder<?>> stores = new LinkedHashSet<>();
    stores.add(
        Stores.keyValueStoreBuilder(
            kind.supplier(TopologyNames.OVER_USED_SINCE_STORE), GroupId.serde(), Serdes.Long()));
    stores.add(
        Stores.keyValueStoreBuilder(
            kind.supplier(TopologyNames.EVICTION_LEDGER_STORE),
            PodId.serde(),
            AvroSerde.forValues(EvictionCommand.class)));
    stores.add(
        Stores.keyValueStoreBuilder(
            kind.supplier(TopologyNames.EVICTION_RETRY_AT_STORE), PodId.serde(), Serdes.Long()));
    return stores;
  }

  @Override
  public void init(final ClusterTask task) {
    this.task = task;
    this.lastReclaimAt = -1;
    this.reclaimer =
        new Reclaimer(
            task.context(),
            task.context().getStateStore(TopologyNames.OVER_USED_SINCE_STORE),
            task.context().getStateStore(TopologyNames.EVICTION_LEDGER_STORE),
            task.context().getStateStore(TopologyNames.EVICTION_RETRY_AT_STORE),
            metrics,
            options,
            policy,
            TopologyNames.EVICTIONS_SINK,
            (cluster, command, at) ->
                history.evicted(
                    new GroupId(cluster, command.getGroup()), at, EvictionReasons.of(command)));
  }

  /**
   * Each rebuilt tree takes up the over-use clocks of its groups; a cluster with clocks is held
   * before the quarantine is lifted from the held clusters, as it always was.
   */
  @Override
  public void rebuilt() {
    final KeyValueStore<GroupId, Long> overUsedSince =
        task.context().getStateStore(TopologyNames.OVER_USED_SINCE_STORE);
    try (KeyValueIterator<GroupId, Long> all = overUsedSince.all()) {
      while (all.hasNext()) {
        final KeyValue<GroupId, Long> entry = all.next();
        if (task.leftOut(entry.key.cluster())) {
          continue;
        }
        // A cluster with over-use clocks is held, as it always was, even without stored inputs.
        task.hold(entry.key.cluster());
        task.treeOfGroup(entry.key)
            .ifPresent(tree -> tree.overUsedSince().put(entry.key.name(), entry.value));
      }
    }
  }

  @Override
  public void schedule(final ClusterTask task) {
    if (enabled) {
      task.schedule(checkInterval, this::reclaim);
    }
  }

  /** An eviction result is no input of the tree: it only tells what became of a command. */
  @Override
  public boolean offered(final Record<String, ClusterEvent> record, final long now) {
    final ClusterEvent event = record.value();
    if (event.getKind() != ClusterEventKind.EVICTION_RESULT) {
      return false;
    }
    event
        .getEvictionResult()
        .ifPresent(
            result ->
                reclaimer.resultArrived(
                    record.key(),
                    new PodRef(event.getNamespace(), event.getName()),
                    result,
                    Instant.ofEpochMilli(now)));
    return true;
  }

  @Override
  public void inputChanged(final String cluster, final InputId id, final Object value) {
    if (id.kind() == InputKind.POD) {
      reclaimer.podChanged(cluster, new PodRef(id.namespace(), id.name()), (PodState) value);
    }
  }

  private void reclaim(final long timestamp) {
    // Decide on up-to-date numbers: a change waiting for the next recomputation counts now,
    // unless its cluster is working through a backlog, whose states are stale anyway.
    task.recompute(timestamp, cluster -> !task.inBacklog(cluster, timestamp));
    final Instant now = Instant.ofEpochMilli(timestamp);
    final long sinceLast = lastReclaimAt < 0 ? 0 : Math.max(0, timestamp - lastReclaimAt);
    lastReclaimAt = timestamp;
    final Map<String, Optional<String>> distrust = new HashMap<>();
    for (final ClusterTree tree : task.trees()) {
      final Optional<String> why =
          distrust.computeIfAbsent(tree.cluster(), cluster -> freshness.distrusted(cluster, now));
      if (why.isPresent()) {
        // No decision on a picture that may be untrue; the time does not count as over-use.
        reclaimer.pauseClocks(tree.cluster(), tree.overUsedSince(), sinceLast, now);
        continue;
      }
      // A cluster still reading a backlog (at start-up, its whole history) has a partial tree:
      // its groups are judged once it has caught up and its last events are computed.
      if (task.isDirty(tree.key()) || !task.caughtUp(tree.cluster(), timestamp)) {
        continue;
      }
      reclaimer.check(tree.cluster(), tree.state(), tree.overUsed(), tree.overUsedSince(), now);
      reservations.reclaim(tree, now, reclaimer);
    }
  }
}
