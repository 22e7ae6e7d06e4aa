package io.quotaflow.engine;

import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.convert.InputRecords;
import io.quotaflow.engine.convert.OutputRecords;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.reclaim.ReclaimPolicy;
import io.quotaflow.engine.reclaim.Reclaimer;
import io.quotaflow.engine.reservation.ReservationKeeper;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.engine.store.GroupPodId;
import io.quotaflow.engine.store.InputId;
import io.quotaflow.engine.store.InputId.InputKind;
import io.quotaflow.engine.store.PodId;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodQuotaClass;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.schemas.internal.ClusterEvent;
import io.quotaflow.schemas.internal.ClusterEventKind;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.TreeDelta;
import io.quotaflow.tree.TreeSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The quota trees of the clusters of one partition of the cluster-events topic. Input events update
 * the {@code cluster-inputs} store and the cluster's in-memory {@link ClusterQuotaState}, and only
 * mark the cluster dirty. A wall-clock punctuator recomputes dirty clusters (so a burst of events
 * costs one recomputation) and emits what changed; a second one reclaims over-used groups. The
 * in-memory state is rebuilt from the stores whenever the task starts, so it always matches what
 * was committed.
 */
final class ClusterQuotaProcessor
    implements Processor<String, ClusterEvent, SpecificRecord, SpecificRecord> {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterQuotaProcessor.class);

  private final QuotaOptions options;
  private final Duration recomputeInterval;
  private final RecomputePacer pacer;
  private final boolean reclaimEnabled;
  private final Duration revokeCheckInterval;
  private final ReclaimPolicy reclaimPolicy;
  private final Duration relockInterval;
  private final EngineMetrics metrics;

  private ProcessorContext<SpecificRecord, SpecificRecord> context;
  private KeyValueStore<InputId, ClusterEvent> inputs;
  private ClusterOutputs outputs;
  private Reclaimer reclaimer;
  private ReservationKeeper reservations;
  private final Map<String, ClusterTree> clusters = new HashMap<>();
  private final Set<String> dirty = new TreeSet<>();
  private final List<Cancellable> punctuators = new ArrayList<>();

  ClusterQuotaProcessor(final EngineConfig config, final EngineMetrics metrics) {
    this.options = config.quotaOptions();
    this.recomputeInterval = config.get(EngineSettings.RECOMPUTE_INTERVAL);
    this.pacer =
        new RecomputePacer(
            config.get(EngineSettings.RECOMPUTE_BACKLOG_INTERVAL),
            config.get(EngineSettings.RECOMPUTE_BACKLOG_MAX_INTERVAL));
    this.reclaimEnabled = config.get(EngineSettings.RECLAIM_ENABLED);
    this.revokeCheckInterval = config.get(EngineSettings.REVOKE_CHECK_INTERVAL);
    this.reclaimPolicy =
        new ReclaimPolicy(
            config.get(EngineSettings.REVOKE_DELAY),
            config.get(EngineSettings.REVOKE_RETRY_BACKOFF),
            config.get(EngineSettings.REVOKE_MAX_ATTEMPTS));
    this.relockInterval = config.get(EngineSettings.RESERVATION_RELOCK_INTERVAL);
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  @Override
  public void init(final ProcessorContext<SpecificRecord, SpecificRecord> context) {
    // A task revived after a failure initialises its processors again: start from the stores only.
    clusters.clear();
    dirty.clear();
    pacer.clear();
    if (reservations != null) {
      reservations.clear();
    }
    punctuators.forEach(Cancellable::cancel);
    punctuators.clear();
    this.context = context;
    this.inputs = context.getStateStore(TopologyNames.CLUSTER_INPUTS_STORE);
    final KeyValueStore<GroupId, GroupRuntime> runtime =
        context.getStateStore(TopologyNames.RUNTIME_STORE);
    final KeyValueStore<GroupPodId, PodQuotaClass> assignments =
        context.getStateStore(TopologyNames.POD_ASSIGNMENTS_STORE);
    final KeyValueStore<GroupId, Long> overUsedSince =
        context.getStateStore(TopologyNames.OVER_USED_SINCE_STORE);
    final KeyValueStore<PodId, EvictionCommand> ledger =
        context.getStateStore(TopologyNames.EVICTION_LEDGER_STORE);
    final KeyValueStore<PodId, Long> retryAt =
        context.getStateStore(TopologyNames.EVICTION_RETRY_AT_STORE);
    this.reservations =
        new ReservationKeeper(
            context.getStateStore(TopologyNames.RESERVATIONS_STORE),
            context.getStateStore(TopologyNames.RESERVATION_INTRUDERS_SINCE_STORE),
            options,
            reclaimPolicy.revokeDelay(),
            metrics);
    this.outputs = new ClusterOutputs(context, runtime, assignments, reservations);
    this.reclaimer =
        new Reclaimer(
            context,
            overUsedSince,
            ledger,
            retryAt,
            metrics,
            options,
            reclaimPolicy,
            TopologyNames.EVICTIONS_SINK);

    final long started = System.nanoTime();
    restore(runtime, assignments, overUsedSince);
    final Duration rebuilt = Duration.ofNanos(System.nanoTime() - started);
    metrics.rebuilt(rebuilt);
    LOG.info(
        "Task {} holds {} clusters {} (rebuilt in {} ms)",
        context.taskId(),
        clusters.size(),
        clusters.keySet(),
        rebuilt.toMillis());

    punctuators.add(
        context.schedule(recomputeInterval, PunctuationType.WALL_CLOCK_TIME, this::recomputeDirty));
    if (reclaimEnabled) {
      punctuators.add(
          context.schedule(revokeCheckInterval, PunctuationType.WALL_CLOCK_TIME, this::reclaim));
    }
    punctuators.add(
        context.schedule(relockInterval, PunctuationType.WALL_CLOCK_TIME, this::relock));
  }

  @Override
  public void process(final Record<String, ClusterEvent> record) {
    final ClusterEvent event = record.value();
    final String cluster = record.key();
    final long now = context.currentSystemTimeMs();
    if (event.getKind() == ClusterEventKind.EVICTION_RESULT) {
      // Not an input of the tree: it only tells the reclaimer what became of a command.
      event
          .getEvictionResult()
          .ifPresent(
              result ->
                  reclaimer.resultArrived(
                      cluster,
                      new PodRef(event.getNamespace(), event.getName()),
                      result,
                      Instant.ofEpochMilli(now)));
      return;
    }
    final InputId id = inputId(event);
    if (id == null) {
      LOG.warn(
          "Ignoring a cluster event of unknown kind from {}-{}@{}",
          event.getSourceTopic(),
          event.getSourcePartition(),
          event.getSourceOffset());
      return;
    }
    final ClusterTree tree = tree(cluster);
    final Object value = event.getValue().orElse(null);
    if (value == null) {
      inputs.delete(id);
    } else {
      inputs.put(id, event);
    }
    apply(tree, id, value);
    reservations.inputChanged(cluster, tree.state(), id, value);
    if (id.kind() == InputKind.POD) {
      reclaimer.podChanged(cluster, new PodRef(id.namespace(), id.name()), (PodState) value);
    }
    dirty.add(cluster);
    pacer.arrived(cluster, record.timestamp(), now);
  }

  @Override
  public void close() {
    punctuators.forEach(Cancellable::cancel);
    punctuators.clear();
    clusters.keySet().forEach(metrics::clusterReleased);
    clusters.clear();
    dirty.clear();
  }

  /** At a recompute tick: recomputes the dirty clusters the pacer says are due. */
  private void recomputeDirty(final long timestamp) {
    recompute(timestamp, cluster -> pacer.due(cluster, timestamp));
  }

  /** Recomputes the dirty clusters {@code chosen} accepts and emits what changed. */
  private void recompute(final long timestamp, final Predicate<String> chosen) {
    if (dirty.isEmpty()) {
      return;
    }
    final Instant now = Instant.ofEpochMilli(timestamp);
    for (final Iterator<String> it = dirty.iterator(); it.hasNext(); ) {
      final String cluster = it.next();
      if (!chosen.test(cluster)) {
        continue;
      }
      it.remove();
      pacer.recomputed(cluster, timestamp);
      final ClusterTree tree = clusters.get(cluster);
      final long started = System.nanoTime();
      final TreeDelta delta = tree.state().recompute();
      outputs.emit(tree, delta, reservations.afterRecompute(cluster, tree.state(), now), now);
      metrics.groupsChanged(cluster, delta.changedGroups(), delta.removedGroups());
      metrics.recomputed(
          cluster, Duration.ofNanos(System.nanoTime() - started), tree.groups().size());
      if (LOG.isDebugEnabled() && !delta.isEmpty()) {
        LOG.debug(
            "Cluster {}: {} groups changed, {} removed, {} pods changed, {} removed",
            cluster,
            delta.changedGroups().size(),
            delta.removedGroups().size(),
            delta.changedPods().size(),
            delta.removedPods().size());
      }
    }
  }

  private void reclaim(final long timestamp) {
    // Decide on up-to-date numbers: a change waiting for the next recomputation counts now,
    // unless its cluster is working through a backlog, whose states are stale anyway.
    recompute(timestamp, cluster -> !pacer.inBacklog(cluster, timestamp));
    for (final ClusterTree tree : clusters.values()) {
      // A cluster still reading a backlog (at start-up, its whole history) has a partial tree:
      // its groups are judged once it has caught up and its last events are computed.
      if (dirty.contains(tree.cluster()) || !pacer.caughtUp(tree.cluster(), timestamp)) {
        continue;
      }
      reclaimer.check(
          tree.cluster(),
          tree.state(),
          tree.overUsed(),
          tree.overUsedSince(),
          Instant.ofEpochMilli(timestamp));
      reservations.reclaim(
          tree.cluster(), tree.state(), Instant.ofEpochMilli(timestamp), reclaimer);
    }
  }

  /** The design's relock: every followed cluster's reservations are planned at its next tick. */
  private void relock(final long timestamp) {
    for (final String cluster : reservations.clusters()) {
      reservations.relock(cluster);
      dirty.add(cluster);
    }
  }

  private ClusterTree tree(final String cluster) {
    return clusters.computeIfAbsent(
        cluster, name -> new ClusterTree(name, new ClusterQuotaState(options)));
  }

  private static void apply(final ClusterTree tree, final InputId id, final Object value) {
    final ClusterQuotaState state = tree.state();
    switch (id.kind()) {
      case POD -> {
        if (value == null) {
          state.removePod(new PodRef(id.namespace(), id.name()));
        } else {
          state.putPod(InputRecords.pod(id.namespace(), id.name(), (PodState) value));
        }
      }
      case QUOTA -> {
        if (value == null) {
          state.removeGroup(id.name());
        } else {
          state.putGroup(InputRecords.group(id.name(), (QuotaSpec) value));
        }
      }
      case NODE -> {
        if (value == null) {
          state.removeNode(id.name());
        } else {
          state.putNode(InputRecords.node(id.name(), (NodeState) value));
        }
      }
    }
  }

  private static InputId inputId(final ClusterEvent event) {
    final InputKind kind = kind(event.getKind());
    return kind == null
        ? null
        : new InputId(event.getCluster(), kind, event.getNamespace(), event.getName());
  }

  private static InputKind kind(final ClusterEventKind kind) {
    return switch (kind) {
      case POD -> InputKind.POD;
      case QUOTA -> InputKind.QUOTA;
      case NODE -> InputKind.NODE;
      case EVICTION_RESULT, UNKNOWN -> null;
    };
  }

  /**
   * Rebuilds every cluster of this task from the stores: the inputs into a fresh state, and the
   * last emitted results as the state's previous result, so the first recomputation emits only what
   * the stores do not already say.
   */
  private void restore(
      final KeyValueStore<GroupId, GroupRuntime> runtime,
      final KeyValueStore<GroupPodId, PodQuotaClass> assignments,
      final KeyValueStore<GroupId, Long> overUsedSince) {
    final Map<String, Restored> restored = new TreeMap<>();
    try (KeyValueIterator<InputId, ClusterEvent> all = inputs.all()) {
      while (all.hasNext()) {
        final KeyValue<InputId, ClusterEvent> entry = all.next();
        restored
            .computeIfAbsent(entry.key.cluster(), c -> new Restored())
            .add(entry.key, entry.value.getValue().orElse(null));
      }
    }
    try (KeyValueIterator<GroupId, GroupRuntime> all = runtime.all()) {
      while (all.hasNext()) {
        final KeyValue<GroupId, GroupRuntime> entry = all.next();
        restored
            .computeIfAbsent(entry.key.cluster(), c -> new Restored())
            .groups
            .add(OutputRecords.status(entry.key.name(), entry.value));
      }
    }
    final Map<String, Map<PodRef, String>> filed = new HashMap<>();
    try (KeyValueIterator<GroupPodId, PodQuotaClass> all = assignments.all()) {
      while (all.hasNext()) {
        final KeyValue<GroupPodId, PodQuotaClass> entry = all.next();
        final PodRef ref = entry.key.ref();
        restored
            .computeIfAbsent(entry.key.cluster(), c -> new Restored())
            .pods
            .add(OutputRecords.assignment(ref, entry.value));
        filed
            .computeIfAbsent(entry.key.cluster(), c -> new HashMap<>())
            .put(ref, entry.key.group());
      }
    }
    restored.forEach(
        (cluster, parts) -> {
          final ClusterQuotaState state =
              ClusterQuotaState.restore(
                  options,
                  new ClusterInputs(parts.groupSpecs, parts.podInputs, parts.nodeInputs),
                  new TreeSnapshot(rootRuntime(parts.groups), parts.groups, parts.pods));
          final ClusterTree tree = new ClusterTree(cluster, state);
          parts.groups.forEach(tree::noteGroup);
          metrics.groupsChanged(cluster, parts.groups, List.of());
          tree.filedGroup().putAll(filed.getOrDefault(cluster, Map.of()));
          reservations.restore(cluster, state, parts.groupSpecs);
          clusters.put(cluster, tree);
          dirty.add(cluster);
        });
    try (KeyValueIterator<GroupId, Long> all = overUsedSince.all()) {
      while (all.hasNext()) {
        final KeyValue<GroupId, Long> entry = all.next();
        final ClusterTree tree = clusters.get(entry.key.cluster());
        if (tree != null) {
          tree.overUsedSince().put(entry.key.name(), entry.value);
        }
      }
    }
  }

  private static ResourceList rootRuntime(final List<GroupStatus> groups) {
    return groups.stream()
        .filter(status -> SpecialGroups.ROOT.equals(status.name()))
        .map(GroupStatus::runtime)
        .findFirst()
        .orElse(ResourceList.empty());
  }

  /** One cluster's contents of the stores, gathered before its state is rebuilt. */
  private static final class Restored {
    private final List<QuotaGroup> groupSpecs = new ArrayList<>();
    private final List<QuotaPod> podInputs = new ArrayList<>();
    private final List<QuotaNode> nodeInputs = new ArrayList<>();
    private final List<GroupStatus> groups = new ArrayList<>();
    private final List<PodAssignment> pods = new ArrayList<>();

    void add(final InputId id, final Object value) {
      if (value == null) {
        return;
      }
      switch (id.kind()) {
        case POD -> podInputs.add(InputRecords.pod(id.namespace(), id.name(), (PodState) value));
        case QUOTA -> groupSpecs.add(InputRecords.group(id.name(), (QuotaSpec) value));
        case NODE -> nodeInputs.add(InputRecords.node(id.name(), (NodeState) value));
      }
    }
  }
}
