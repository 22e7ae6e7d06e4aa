package io.quotaflow.engine;

import io.quotaflow.dra.ClaimedDevices;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.convert.InputRecords;
import io.quotaflow.engine.convert.OutputRecords;
import io.quotaflow.engine.devices.ClusterDevices;
import io.quotaflow.engine.fairshare.FairShareConfig;
import io.quotaflow.engine.fairshare.PastUsageKeeper;
import io.quotaflow.engine.freshness.InputFreshnessBook;
import io.quotaflow.engine.history.HistoryConfig;
import io.quotaflow.engine.history.HistoryRecords;
import io.quotaflow.engine.history.TieredHistory;
import io.quotaflow.engine.liveness.TaskHeartbeat;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.reclaim.EvictionReasons;
import io.quotaflow.engine.reclaim.ReclaimPolicy;
import io.quotaflow.engine.reclaim.Reclaimer;
import io.quotaflow.engine.recovery.InputResumeAudit;
import io.quotaflow.engine.recovery.RestoreAudit;
import io.quotaflow.engine.reservation.ReservationKeeper;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.engine.store.GroupPodId;
import io.quotaflow.engine.store.InputId;
import io.quotaflow.engine.store.InputId.InputKind;
import io.quotaflow.engine.store.KeyPrefixes;
import io.quotaflow.engine.store.PodId;
import io.quotaflow.engine.writers.ClusterWriterBook;
import io.quotaflow.fairshare.HalfLife;
import io.quotaflow.history.HistoryTiers;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.profile.QuotaTrees;
import io.quotaflow.profile.TreeOp;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.GroupReservation;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodDenial;
import io.quotaflow.schemas.PodQuotaClass;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.QuotaProfileSpec;
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
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The quota trees of the clusters of one partition of the cluster-events topic. Input events update
 * the {@code cluster-inputs} store and, routed by the cluster's {@link QuotaTrees}, the in-memory
 * {@link ClusterQuotaState} of each tree they belong to (one per cluster without
 * ElasticQuotaProfiles), and only mark those trees dirty. A wall-clock punctuator recomputes dirty
 * clusters (so a burst of events costs one recomputation) and emits what changed; a second one
 * reclaims over-used groups. The in-memory state is rebuilt from the stores whenever the task
 * starts, so it always matches what was committed.
 */
final class ClusterQuotaProcessor
    implements Processor<String, ClusterEvent, SpecificRecord, SpecificRecord> {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterQuotaProcessor.class);
  private static final Duration FRESHNESS_GAUGE_INTERVAL = Duration.ofSeconds(5);

  private final QuotaOptions options;
  private final Duration recomputeInterval;
  private final RecomputePacer pacer;
  private final boolean reclaimEnabled;
  private final Duration revokeCheckInterval;
  private final ReclaimPolicy reclaimPolicy;
  private final Duration relockInterval;
  private final EngineMetrics metrics;
  private final RestoreAudit restores;
  // Where each incarnation starts reading its inputs (issue 40.7).
  private final InputResumeAudit resumes;
  private InputResumeAudit.Incarnation resumed;
  private final Duration maxStaleness;
  private final Duration maxSilence;
  private final boolean markersRequired;
  // The history's step, when the engine keeps it (section 23).
  private final Optional<Duration> historyStep;
  // The decay of fair share's memory, when it is on (section 24).
  private final Optional<HalfLife> halfLife;
  private final Optional<HistoryTiers> historyTiers;
  private PastUsageKeeper pastUsage;
  // How often this processor was initialised: Kafka Streams initialises the same processor again
  // when it revives its task after closing it dirty.
  private int initialisations;
  // Set when the task's restore is refused: it must not compute on an incomplete state.
  private boolean restoreRefused;

  private ProcessorContext<SpecificRecord, SpecificRecord> context;
  private KeyValueStore<InputId, ClusterEvent> inputs;
  private ClusterOutputs outputs;
  private Reclaimer reclaimer;
  // Counts denials in the groups' history; empty when no history is kept.
  private Optional<TieredHistory> history = Optional.empty();
  private KeyValueStore<GroupId, GroupRuntime> runtimes;
  private ReservationKeeper reservations;
  private InputFreshnessBook freshness;
  private ClusterWriterBook writers;
  // When reclaim last looked at the clusters: the over-use clocks of a cluster whose inputs are not
  // trusted are moved on by the time since, so that time does not count (they are paused).
  private long lastReclaimAt = -1;
  // Which tree each input of a cluster belongs to, and each tree's state: a change in one tree
  // marks only that tree dirty, so the others are not recomputed.
  private final Map<String, QuotaTrees> routers = new HashMap<>();
  // Each cluster's DRA objects and pods with claims (docs/semantics.md section 22).
  private final Map<String, ClusterDevices> devices = new HashMap<>();
  private final ClaimedDevices claimed;
  private final Map<TreeKey, ClusterTree> clusters = new HashMap<>();
  private final Set<TreeKey> dirty = new TreeSet<>();
  private final Set<String> reclaimSuspended = new HashSet<>();
  private final List<Cancellable> punctuators = new ArrayList<>();

  ClusterQuotaProcessor(
      final EngineConfig config,
      final EngineMetrics metrics,
      final RestoreAudit restores,
      final InputResumeAudit resumes) {
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
            config.get(EngineSettings.REVOKE_MAX_ATTEMPTS),
            config.get(EngineSettings.REVOKE_RESULT_TIMEOUT));
    this.relockInterval = config.get(EngineSettings.RESERVATION_RELOCK_INTERVAL);
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.restores = Objects.requireNonNull(restores, "restores");
    this.resumes = Objects.requireNonNull(resumes, "resumes");
    this.maxStaleness = config.get(EngineSettings.INPUTS_MAX_STALENESS);
    this.maxSilence = config.get(EngineSettings.HEALTH_MAX_SILENCE);
    this.markersRequired = config.get(EngineSettings.INPUTS_MARKERS_REQUIRED);
    this.historyTiers = HistoryConfig.tiers(config);
    this.historyStep = historyTiers.map(HistoryTiers::fineStep);
    this.halfLife = FairShareConfig.halfLife(config);
    this.claimed = new ClaimedDevices(config.deviceClasses());
  }

  @Override
  public void init(final ProcessorContext<SpecificRecord, SpecificRecord> context) {
    // A task revived after a failure initialises its processors again: start from the stores only.
    routers.clear();
    devices.clear();
    clusters.clear();
    dirty.clear();
    reclaimSuspended.clear();
    pacer.clear();
    if (reservations != null) {
      reservations.clear();
    }
    punctuators.forEach(Cancellable::cancel);
    punctuators.clear();
    lastReclaimAt = -1;
    this.context = context;
    resumed = resumes.incarnation(context);
    if (refuseIncompleteRestore(context)) {
      return;
    }
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
    this.freshness =
        new InputFreshnessBook(
            context.getStateStore(TopologyNames.INPUT_FRESHNESS_STORE),
            maxStaleness,
            markersRequired);
    freshness.restore();
    runtimes = runtime;
    history = historyTiers.map(tiers -> TieredHistory.of(context::getStateStore, tiers));
    this.outputs = new ClusterOutputs(context, runtime, assignments, reservations, history);
    this.pastUsage =
        halfLife
            .map(
                decay ->
                    new PastUsageKeeper(
                        context.getStateStore(TopologyNames.FAIRSHARE_MEMORY_STORE),
                        context.getStateStore(
                            TopologyNames.historyStore(historyStep.orElseThrow())),
                        decay,
                        historyTiers.orElseThrow().fineRetention()))
            .orElse(null);
    this.reclaimer =
        new Reclaimer(
            context,
            overUsedSince,
            ledger,
            retryAt,
            metrics,
            options,
            reclaimPolicy,
            TopologyNames.EVICTIONS_SINK,
            (cluster, command, at) ->
                history.ifPresent(
                    keeper -> {
                      final GroupId group = new GroupId(cluster, command.getGroup());
                      keeper.evicted(
                          group,
                          at,
                          () -> HistoryRecords.levels(runtime.get(group)),
                          EvictionReasons.of(command));
                    }));

    final long started = System.nanoTime();
    final Map<String, String> unbuildable = restore(runtime, assignments, overUsedSince);
    if (pastUsage != null) {
      restorePastUsage();
    }
    final Duration rebuilt = Duration.ofNanos(System.nanoTime() - started);
    // Rebuilt from the stores: a cluster quarantined by a poison record starts afresh, unless its
    // stored inputs cannot be rebuilt either; then it stays quarantined and the others go on.
    metrics.quarantine().release(routers.keySet());
    writers =
        new ClusterWriterBook(
            context.getStateStore(ClusterWriterBook.STORE),
            metrics.quarantine(),
            metrics.registry(),
            maxStaleness);
    writers.restore();
    unbuildable.forEach(
        (cluster, why) -> {
          LOG.error("cluster {}: quarantined: {}", cluster, why);
          metrics.quarantine().quarantine(cluster, why);
        });
    metrics.rebuilt(rebuilt);
    metrics.taskHolds(context.taskId().partition(), routers.size());
    LOG.info(
        "Task {} holds {} clusters {} in {} trees (rebuilt in {} ms)",
        context.taskId(),
        routers.size(),
        routers.keySet(),
        clusters.size(),
        rebuilt.toMillis());

    punctuators.add(
        context.schedule(recomputeInterval, PunctuationType.WALL_CLOCK_TIME, this::recomputeDirty));
    if (reclaimEnabled) {
      punctuators.add(
          context.schedule(revokeCheckInterval, PunctuationType.WALL_CLOCK_TIME, this::reclaim));
    }
    punctuators.add(
        context.schedule(relockInterval, PunctuationType.WALL_CLOCK_TIME, this::relock));
    punctuators.add(
        context.schedule(FRESHNESS_GAUGE_INTERVAL, PunctuationType.WALL_CLOCK_TIME, this::gauge));
    if (pastUsage != null) {
      punctuators.add(
          context.schedule(
              historyStep.orElseThrow(), PunctuationType.WALL_CLOCK_TIME, this::foldPastUsage));
    }
    punctuators.add(TaskHeartbeat.start(context, metrics.heartbeats(), maxSilence));
  }

  /**
   * Fair share with memory (section 24): at each history step, folds the windows that closed into
   * every group's decayed borrowing and hands each tree its groups' averages; the trees whose
   * averages changed are recomputed at the next tick.
   */
  private void foldPastUsage(final long timestamp) {
    final Instant now = Instant.ofEpochMilli(timestamp);
    final KeyValueStore<GroupId, GroupRuntime> runtime =
        context.getStateStore(TopologyNames.RUNTIME_STORE);
    final Set<GroupId> folded = new HashSet<>();
    for (final ClusterTree tree : clusters.values()) {
      if (metrics.quarantine().isQuarantined(tree.cluster())) {
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
          dirty.add(tree.key());
        }
      }
    }
    pastUsage.foldOthers(folded, now);
  }

  /** Hands each rebuilt tree its groups' decayed borrowing as last folded. */
  private void restorePastUsage() {
    pastUsage
        .averages()
        .forEach(
            (group, average) -> {
              final QuotaTrees router = routers.get(group.cluster());
              if (router == null) {
                return;
              }
              final ClusterTree tree =
                  clusters.get(new TreeKey(group.cluster(), router.treeOfGroup(group.name())));
              if (tree != null) {
                tree.state().putPastUsage(group.name(), average);
              }
            });
  }

  /**
   * Whether the task, re-created after a dirty close, restored a store from past the start of its
   * changelog (see {@link RestoreAudit}); if so, the task is reported corrupted again before it
   * computes anything, so that Kafka Streams wipes and restores it once more.
   */
  private boolean refuseIncompleteRestore(
      final ProcessorContext<SpecificRecord, SpecificRecord> context) {
    final boolean reinitialised = initialisations++ > 0;
    restoreRefused = false;
    List<RestoreAudit.RestoreStart> skipped;
    try {
      skipped =
          restores.skippedRestores(
              context.taskId().partition(),
              TopologyNames.clusterQuotaStores(historyTiers, halfLife.isPresent()),
              reinitialised);
    } catch (final RuntimeException e) {
      LOG.warn(
          "Task {}: cannot read where its changelogs start, so its restore is not proven; restoring"
              + " again",
          context.taskId(),
          e);
      skipped = List.of();
      restoreRefused = true;
    }
    restoreRefused |= !skipped.isEmpty();
    if (!restoreRefused) {
      return false;
    }
    LOG.warn(
        "Task {} was re-created with stores restored past the start of their changelogs {}: it"
            + " would hold an incomplete state, so it is re-initialised and restored again",
        context.taskId(),
        skipped);
    metrics.restoreRefused();
    final TaskId task = context.taskId();
    punctuators.add(
        context.schedule(
            Duration.ofMillis(1),
            PunctuationType.WALL_CLOCK_TIME,
            timestamp -> {
              throw new TaskCorruptedException(Set.of(task));
            }));
    return true;
  }

  @Override
  public void process(final Record<String, ClusterEvent> record) {
    resumed.check(context.recordMetadata());
    if (restoreRefused) {
      throw new TaskCorruptedException(Set.of(context.taskId()));
    }
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
    if (event.getKind() == ClusterEventKind.DENIAL) {
      // Not an input of the tree either: a pod the admission plugin turned away, for the history.
      event.getDenial().ifPresent(denial -> denied(cluster, denial));
      return;
    }
    if (!writers.admit(cluster, event, record.headers(), record.timestamp())) {
      return; // an old leader's record, or a second cluster's under this name (issue 40.12)
    }
    if (event.getKind() == ClusterEventKind.MARKER) {
      marker(cluster, event, record.timestamp(), now);
      pacer.arrived(cluster, record.timestamp(), now);
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
    final Object value = value(event, id);
    if (value == null) {
      inputs.delete(id);
    } else {
      inputs.put(id, event);
    }
    apply(cluster, id, value);
    pacer.arrived(cluster, record.timestamp(), now);
  }

  /** Applies changes of a cluster's trees, marking each tree changed for the next recompute. */
  private void applyOps(final String cluster, final List<TreeOp> ops) {
    for (final TreeOp op : ops) {
      final ClusterTree tree = tree(new TreeKey(cluster, op.tree()));
      op.applyTo(tree.state());
      dirty.add(tree.key());
    }
  }

  /** Applies a changed (or, with a null value, deleted) input to the trees it belongs to. */
  private void apply(final String cluster, final InputId id, final Object value) {
    if (ClusterDevices.isDra(id.kind())) {
      // The DRA objects are no tree input: the pods with claims are charged again with them,
      // and the nodes whose slices' devices changed are counted again (semantics.md 22.8).
      final ClusterDevices clusterDevices = devices(cluster);
      clusterDevices
          .put(id, value)
          .forEach(
              (ref, pod) ->
                  apply(
                      cluster,
                      new InputId(cluster, InputKind.POD, ref.namespace(), ref.name()),
                      pod));
      final QuotaTrees router = router(cluster);
      clusterDevices
          .nodeChanges()
          .forEach(
              (name, node) ->
                  applyOps(
                      cluster,
                      node.isPresent() ? router.putNode(node.get()) : router.removeNode(name)));
      return;
    }
    applyOps(cluster, route(router(cluster), devices(cluster), id, value));
    if (id.kind() == InputKind.PODGROUP) {
      // Kept in the store for the admission plugin (a gang's first member judged whole); the
      // quota itself reads a gang's minMember from its pods, which the connectors fill.
      return;
    }
    if (id.kind() != InputKind.PROFILE) {
      // Node reservations are planned over the default tree (docs/semantics.md section 15).
      reservations.inputChanged(
          cluster, tree(new TreeKey(cluster, QuotaTrees.DEFAULT_TREE)).state(), id, value);
    }
    if (id.kind() == InputKind.QUOTA) {
      metrics.ignoredNamesakes(cluster, router(cluster).ignoredNamesakes());
    }
    if (id.kind() == InputKind.POD) {
      reclaimer.podChanged(cluster, new PodRef(id.namespace(), id.name()), (PodState) value);
    }
  }

  /**
   * A connectors' marker: freshness is noted; at the end of a snapshot whose start this task read,
   * the cluster's inputs of that kind not written since the start are gone from the cluster (their
   * delete was lost, or their tombstone removed by compaction before it was read) and are dropped.
   */
  private void marker(
      final String cluster, final ClusterEvent event, final long appendedAt, final long now) {
    final InputKind kind;
    try {
      kind = InputKind.valueOf(event.getName());
    } catch (final IllegalArgumentException e) {
      LOG.warn("cluster {}: ignoring a marker about unknown inputs {}", cluster, event.getName());
      return;
    }
    router(cluster);
    event
        .getMarker()
        .flatMap(
            marker ->
                freshness.marker(
                    cluster,
                    kind,
                    marker,
                    event.getSourceTopic(),
                    event.getSourcePartition(),
                    event.getSourceOffset(),
                    appendedAt,
                    now))
        .ifPresent(start -> dropNotResent(cluster, kind, start));
  }

  private void dropNotResent(
      final String cluster, final InputKind kind, final InputFreshnessBook.SnapshotStart start) {
    final List<InputId> gone = new ArrayList<>();
    try (KeyValueIterator<InputId, ClusterEvent> all =
        inputs.prefixScan(InputFreshnessBook.id(cluster, kind), KeyPrefixes.inputsOf())) {
      while (all.hasNext()) {
        final KeyValue<InputId, ClusterEvent> entry = all.next();
        final ClusterEvent written = entry.value;
        // Only inputs read from the snapshot's own partition are ordered against its start.
        if (written.getSourceTopic().equals(start.topic())
            && written.getSourcePartition() == start.partition()
            && written.getSourceOffset() < start.offset()) {
          gone.add(entry.key);
        }
      }
    }
    for (final InputId id : gone) {
      inputs.delete(id);
      apply(cluster, id, null);
    }
    if (!gone.isEmpty()) {
      LOG.warn(
          "cluster {}: snapshot {} did not re-send {} {} inputs, dropped as gone: {}",
          cluster,
          start.epoch(),
          gone.size(),
          kind.name().toLowerCase(),
          gone.size() <= 10 ? gone : gone.subList(0, 10) + " ...");
    }
    metrics.snapshotDropped(cluster, kind.name().toLowerCase(), gone.size());
  }

  /** Publishes how fresh each held cluster's inputs are. */
  private void gauge(final long timestamp) {
    final Instant now = Instant.ofEpochMilli(timestamp);
    for (final String cluster : routers.keySet()) {
      metrics.inputFreshness(
          cluster,
          freshness.staleness(cluster, now).orElse(null),
          distrusted(cluster, now).isPresent());
      freshness.skew(cluster).ifPresent(skew -> metrics.inputClockSkew(cluster, skew));
    }
  }

  @Override
  public void close() {
    punctuators.forEach(Cancellable::cancel);
    punctuators.clear();
    routers.keySet().forEach(metrics::clusterReleased);
    reclaimSuspended.clear();
    routers.clear();
    devices.clear();
    if (context != null) {
      metrics.taskReleased(context.taskId().partition());
    }
    clusters.clear();
    dirty.clear();
  }

  /** The pods of {@code cluster}'s trees whose label names a group not bound to their namespace. */
  private int unboundPods(final String cluster) {
    int count = 0;
    for (final String tree : router(cluster).trees()) {
      final ClusterTree held = clusters.get(new TreeKey(cluster, tree));
      count += held == null ? 0 : held.state().unboundPods();
    }
    return count;
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
    for (final Iterator<TreeKey> it = dirty.iterator(); it.hasNext(); ) {
      final TreeKey key = it.next();
      final String cluster = key.cluster();
      if (!chosen.test(cluster) || metrics.quarantine().isQuarantined(cluster)) {
        continue;
      }
      it.remove();
      pacer.recomputed(cluster, timestamp);
      try {
        recompute(clusters.get(key), now);
      } catch (final RuntimeException e) {
        LOG.error("Recomputing tree {} failed", key, e);
        metrics.quarantine().quarantine(cluster, "recomputing tree " + key + " failed with " + e);
      }
    }
  }

  /** Recomputes one tree and emits what changed. */
  private void recompute(final ClusterTree tree, final Instant now) {
    final TreeKey key = tree.key();
    final String cluster = key.cluster();
    final long started = System.nanoTime();
    final TreeDelta delta = tree.state().recompute();
    final Map<String, GroupReservation> reserved =
        QuotaTrees.DEFAULT_TREE.equals(key.tree())
            ? reservations.afterRecompute(cluster, tree.state(), now)
            : Map.of();
    outputs.emit(tree, delta, reserved, now);
    metrics.groupsChanged(cluster, delta.changedGroups(), delta.removedGroups());
    metrics.recomputed(
        cluster, Duration.ofNanos(System.nanoTime() - started), tree.groups().size());
    metrics.unboundPods(cluster, unboundPods(cluster));
    if (LOG.isDebugEnabled() && !delta.isEmpty()) {
      LOG.debug(
          "Tree {}: {} groups changed, {} removed, {} pods changed, {} removed",
          key,
          delta.changedGroups().size(),
          delta.removedGroups().size(),
          delta.changedPods().size(),
          delta.removedPods().size());
    }
  }

  private void reclaim(final long timestamp) {
    // Decide on up-to-date numbers: a change waiting for the next recomputation counts now,
    // unless its cluster is working through a backlog, whose states are stale anyway.
    recompute(timestamp, cluster -> !pacer.inBacklog(cluster, timestamp));
    final Instant now = Instant.ofEpochMilli(timestamp);
    final long sinceLast = lastReclaimAt < 0 ? 0 : Math.max(0, timestamp - lastReclaimAt);
    lastReclaimAt = timestamp;
    final Map<String, Optional<String>> distrust = new HashMap<>();
    for (final ClusterTree tree : clusters.values()) {
      final Optional<String> why =
          distrust.computeIfAbsent(tree.cluster(), cluster -> distrusted(cluster, now));
      if (why.isPresent()) {
        // No decision on a picture that may be untrue; the time does not count as over-use.
        reclaimer.pauseClocks(tree.cluster(), tree.overUsedSince(), sinceLast, now);
        continue;
      }
      // A cluster still reading a backlog (at start-up, its whole history) has a partial tree:
      // its groups are judged once it has caught up and its last events are computed.
      if (dirty.contains(tree.key()) || !pacer.caughtUp(tree.cluster(), timestamp)) {
        continue;
      }
      reclaimer.check(
          tree.cluster(),
          tree.state(),
          tree.overUsed(),
          tree.overUsedSince(),
          Instant.ofEpochMilli(timestamp));
      if (QuotaTrees.DEFAULT_TREE.equals(tree.tree())) {
        reservations.reclaim(
            tree.cluster(), tree.state(), Instant.ofEpochMilli(timestamp), reclaimer);
      }
    }
  }

  /** Why {@code cluster}'s inputs may not be acted on at {@code now}, logged when it changes. */
  private Optional<String> distrusted(final String cluster, final Instant now) {
    final Optional<String> quarantined =
        metrics.quarantine().reason(cluster).map(reason -> "quarantined: " + reason);
    final Optional<String> why =
        quarantined.isPresent() ? quarantined : freshness.distrust(cluster, now);
    final boolean suspended = why.isPresent();
    if (suspended != reclaimSuspended.contains(cluster)) {
      if (suspended) {
        reclaimSuspended.add(cluster);
        LOG.warn("cluster {}: reclaim suspended: {}", cluster, why.get());
      } else {
        reclaimSuspended.remove(cluster);
        LOG.info("cluster {}: inputs fresh again, reclaim resumes", cluster);
      }
    }
    return why;
  }

  /** The design's relock: every followed cluster's reservations are planned at its next tick. */
  private void relock(final long timestamp) {
    for (final String cluster : reservations.clusters()) {
      reservations.relock(cluster);
      dirty.add(new TreeKey(cluster, QuotaTrees.DEFAULT_TREE));
    }
  }

  private ClusterTree tree(final TreeKey key) {
    return clusters.computeIfAbsent(key, k -> new ClusterTree(k, new ClusterQuotaState(options)));
  }

  private ClusterDevices devices(final String cluster) {
    return devices.computeIfAbsent(cluster, c -> ClusterDevices.reporting(c, claimed));
  }

  private QuotaTrees router(final String cluster) {
    QuotaTrees router = routers.get(cluster);
    if (router == null) {
      router = new QuotaTrees(options);
      routers.put(cluster, router);
      if (context != null) {
        metrics.taskHolds(context.taskId().partition(), routers.size());
      }
    }
    return router;
  }

  /**
   * The input's value: a profile, a PodGroup or a DRA object travels beside the value field; null
   * for a tombstone.
   */
  private static Object value(final ClusterEvent event, final InputId id) {
    return switch (id.kind()) {
      case PROFILE -> event.getProfile().orElse(null);
      case PODGROUP -> event.getPodGroup().orElse(null);
      case DEVICE_CLASS, RESOURCE_CLAIM, RESOURCE_CLAIM_TEMPLATE, RESOURCE_SLICE ->
          event.getDra().orElse(null);
      case POD, QUOTA, NODE -> event.getValue().orElse(null);
    };
  }

  /** The input as changes of the trees it belongs to. */
  private static List<TreeOp> route(
      final QuotaTrees router, final ClusterDevices devices, final InputId id, final Object value) {
    return switch (id.kind()) {
      case POD -> {
        final PodRef ref = new PodRef(id.namespace(), id.name());
        if (value == null) {
          devices.removePod(ref);
          yield router.removePod(ref);
        }
        yield router.putPod(devices.pod(id.namespace(), id.name(), (PodState) value));
      }
      case QUOTA -> value == null ? router.removeGroup(id.name()) : putGroup(router, id, value);
      case NODE -> {
        if (value == null) {
          devices.removeNode(id.name());
          yield router.removeNode(id.name());
        }
        yield router.putNode(devices.node(id.name(), (NodeState) value));
      }
      case PROFILE ->
          value == null
              ? router.removeProfile(id.name())
              : router.putProfile(InputRecords.profile(id.name(), (QuotaProfileSpec) value));
      case PODGROUP -> List.of();
      case DEVICE_CLASS, RESOURCE_CLAIM, RESOURCE_CLAIM_TEMPLATE, RESOURCE_SLICE -> List.of();
    };
  }

  private static List<TreeOp> putGroup(
      final QuotaTrees router, final InputId id, final Object value) {
    final QuotaGroup group = InputRecords.group(id.name(), (QuotaSpec) value);
    router
        .options()
        .specialQuotaNamespaces()
        .refusal(group.name(), group.namespace())
        .ifPresent(why -> LOG.warn("cluster {}: {} (quota.special.namespaces)", id.cluster(), why));
    if (!group.ignoredNamesakes().isEmpty()) {
      // Sent only when the group's record changes: once per change, not per event.
      LOG.warn(
          "cluster {}: ElasticQuota {} also exists in namespaces {}; those are ignored (quota names"
              + " are cluster-wide and the first created, in namespace {}, stands for the name)",
          id.cluster(),
          id.name(),
          group.ignoredNamesakes(),
          group.namespace());
    }
    return router.putGroup(group);
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
      case PROFILE -> InputKind.PROFILE;
      case PODGROUP -> InputKind.PODGROUP;
      case DEVICE_CLASS -> InputKind.DEVICE_CLASS;
      case RESOURCE_CLAIM -> InputKind.RESOURCE_CLAIM;
      case RESOURCE_CLAIM_TEMPLATE -> InputKind.RESOURCE_CLAIM_TEMPLATE;
      case RESOURCE_SLICE -> InputKind.RESOURCE_SLICE;
      case EVICTION_RESULT, MARKER, DENIAL, UNKNOWN -> null;
    };
  }

  /**
   * Rebuilds every cluster of this task from the stores: the inputs routed to their trees, each
   * tree's inputs into a fresh state, and the last emitted results as that state's previous result
   * (filed under the tree the group or pod is in now), so the first recomputation emits only what
   * the stores do not already say. A cluster whose stored inputs cannot be rebuilt (a poison record
   * that broke its processing is in them, and breaks the rebuild too) is left out, so that one
   * record cannot stop every instance that takes the task over in turn.
   *
   * @return the clusters left out, with why
   */
  private Map<String, String> restore(
      final KeyValueStore<GroupId, GroupRuntime> runtime,
      final KeyValueStore<GroupPodId, PodQuotaClass> assignments,
      final KeyValueStore<GroupId, Long> overUsedSince) {
    final Map<String, Restored> restored = new TreeMap<>();
    final Map<String, String> failed = new TreeMap<>();
    try (KeyValueIterator<InputId, ClusterEvent> all = inputs.all()) {
      while (all.hasNext()) {
        final KeyValue<InputId, ClusterEvent> entry = all.next();
        final String cluster = entry.key.cluster();
        try {
          restored
              .computeIfAbsent(cluster, c -> new Restored(ClusterDevices.reporting(c, claimed)))
              .add(entry.key, value(entry.value, entry.key));
        } catch (RuntimeException e) {
          failed.putIfAbsent(cluster, "rebuilding its stored input " + entry.key + " failed: " + e);
        }
      }
    }
    restored.forEach(
        (cluster, parts) -> {
          if (failed.containsKey(cluster)) {
            return;
          }
          try {
            final QuotaTrees router = parts.route(options);
            routers.put(cluster, router);
            devices.put(cluster, parts.devices);
            metrics.ignoredNamesakes(cluster, router.ignoredNamesakes());
          } catch (RuntimeException e) {
            failed.put(cluster, "rebuilding its trees from the stores failed: " + e);
          }
        });
    final Map<TreeKey, List<GroupStatus>> statuses = new TreeMap<>();
    try (KeyValueIterator<GroupId, GroupRuntime> all = runtime.all()) {
      while (all.hasNext()) {
        final KeyValue<GroupId, GroupRuntime> entry = all.next();
        final String cluster = entry.key.cluster();
        if (failed.containsKey(cluster)) {
          continue;
        }
        statuses
            .computeIfAbsent(
                new TreeKey(cluster, router(cluster).treeOfGroup(entry.key.name())),
                k -> new ArrayList<>())
            .add(OutputRecords.status(entry.key.name(), entry.value));
      }
    }
    final Map<TreeKey, List<PodAssignment>> pods = new TreeMap<>();
    final Map<TreeKey, Map<PodRef, String>> filed = new HashMap<>();
    try (KeyValueIterator<GroupPodId, PodQuotaClass> all = assignments.all()) {
      while (all.hasNext()) {
        final KeyValue<GroupPodId, PodQuotaClass> entry = all.next();
        final PodRef ref = entry.key.ref();
        final String cluster = entry.key.cluster();
        if (failed.containsKey(cluster)) {
          continue;
        }
        final TreeKey key =
            new TreeKey(cluster, router(cluster).treeOfPod(ref).orElse(QuotaTrees.DEFAULT_TREE));
        pods.computeIfAbsent(key, k -> new ArrayList<>())
            .add(OutputRecords.assignment(ref, entry.value));
        filed.computeIfAbsent(key, k -> new HashMap<>()).put(ref, entry.key.group());
      }
    }
    final Set<TreeKey> keys = new TreeSet<>(statuses.keySet());
    keys.addAll(pods.keySet());
    routers.forEach(
        (cluster, router) -> router.trees().forEach(tree -> keys.add(new TreeKey(cluster, tree))));
    for (final TreeKey key : keys) {
      if (failed.containsKey(key.cluster())) {
        continue;
      }
      try {
        final List<GroupStatus> groups = statuses.getOrDefault(key, List.of());
        final ClusterQuotaState state =
            ClusterQuotaState.restore(
                options,
                router(key.cluster()).inputs(key.tree()),
                new TreeSnapshot(rootRuntime(groups), groups, pods.getOrDefault(key, List.of())));
        final ClusterTree tree = new ClusterTree(key, state);
        groups.forEach(tree::noteGroup);
        metrics.groupsChanged(key.cluster(), groups, List.of());
        tree.filedGroup().putAll(filed.getOrDefault(key, Map.of()));
        if (QuotaTrees.DEFAULT_TREE.equals(key.tree())) {
          reservations.restore(
              key.cluster(),
              state,
              restored.getOrDefault(key.cluster(), new Restored(new ClusterDevices(claimed)))
                  .groupSpecs);
        }
        clusters.put(key, tree);
        dirty.add(key);
      } catch (RuntimeException e) {
        failed.put(key.cluster(), "rebuilding tree " + key + " from the stores failed: " + e);
      }
    }
    // A cluster left out keeps nothing half rebuilt: it is quarantined until its task is
    // re-created.
    clusters.keySet().removeIf(key -> failed.containsKey(key.cluster()));
    dirty.removeIf(key -> failed.containsKey(key.cluster()));
    routers.keySet().removeAll(failed.keySet());
    devices.keySet().removeAll(failed.keySet());
    try (KeyValueIterator<GroupId, Long> all = overUsedSince.all()) {
      while (all.hasNext()) {
        final KeyValue<GroupId, Long> entry = all.next();
        final String cluster = entry.key.cluster();
        if (failed.containsKey(cluster)) {
          continue;
        }
        final ClusterTree tree =
            clusters.get(new TreeKey(cluster, router(cluster).treeOfGroup(entry.key.name())));
        if (tree != null) {
          tree.overUsedSince().put(entry.key.name(), entry.value);
        }
      }
    }
    return failed;
  }

  private static ResourceList rootRuntime(final List<GroupStatus> groups) {
    return groups.stream()
        .filter(status -> SpecialGroups.ROOT.equals(status.name()))
        .map(GroupStatus::runtime)
        .findFirst()
        .orElse(ResourceList.empty());
  }

  /** One cluster's inputs in the stores, gathered before its trees are rebuilt. */
  private static final class Restored {
    private final ClusterDevices devices;
    private final List<QuotaGroup> groupSpecs = new ArrayList<>();
    // Pods are read once every DRA object is in: the store lists kinds in name order.
    private final Map<PodRef, PodState> podStates = new TreeMap<>();
    private final List<QuotaProfile> profiles = new ArrayList<>();

    Restored(final ClusterDevices devices) {
      this.devices = devices;
    }

    void add(final InputId id, final Object value) {
      if (value == null) {
        return;
      }
      if (ClusterDevices.isDra(id.kind())) {
        devices.put(id, value);
        return;
      }
      switch (id.kind()) {
        case POD -> podStates.put(new PodRef(id.namespace(), id.name()), (PodState) value);
        case QUOTA -> groupSpecs.add(InputRecords.group(id.name(), (QuotaSpec) value));
        // Counted with their slices' devices once every DRA object is in (route).
        case NODE -> devices.node(id.name(), (NodeState) value);
        case PROFILE -> profiles.add(InputRecords.profile(id.name(), (QuotaProfileSpec) value));
        case PODGROUP -> {
          // Not an input of the trees (see apply).
        }
      }
    }

    /** A router of the cluster with everything routed in one pass. */
    QuotaTrees route(final QuotaOptions options) {
      final List<QuotaPod> podInputs = new ArrayList<>(podStates.size());
      podStates.forEach(
          (ref, state) -> podInputs.add(devices.pod(ref.namespace(), ref.name(), state)));
      return QuotaTrees.of(
          new ClusterInputs(groupSpecs, podInputs, devices.nodes()), profiles, options);
    }
  }
}
