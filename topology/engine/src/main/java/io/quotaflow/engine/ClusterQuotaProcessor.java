package io.quotaflow.engine;

import io.quotaflow.dra.ClaimedDevices;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.liveness.TaskHeartbeat;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.recovery.InputResumeAudit;
import io.quotaflow.engine.recovery.RestoreAudit;
import io.quotaflow.engine.store.InputId;
import io.quotaflow.engine.task.ClusterFeature;
import io.quotaflow.profile.QuotaTrees;
import io.quotaflow.schemas.internal.ClusterEvent;
import io.quotaflow.schemas.internal.ClusterEventKind;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.QuotaOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The quota trees of the clusters of one partition of the cluster-events topic, and the router of
 * the task's {@link ClusterFeature features}. Input events update the {@code cluster-inputs} store
 * and, routed by the cluster's {@link QuotaTrees}, the in-memory {@link ClusterQuotaState} of each
 * tree they belong to ({@link TaskTrees}), and only mark those trees dirty. A wall-clock punctuator
 * recomputes dirty clusters (so a burst of events costs one recomputation) and emits what changed.
 * Everything else (history, fair share's memory, reservations, freshness, reclaim, fencing of
 * writers) is a feature registered in {@link ClusterFeatures}, called from the hooks here. The
 * in-memory state is rebuilt from the stores whenever the task starts, so it always matches what
 * was committed.
 */
final class ClusterQuotaProcessor
    implements Processor<String, ClusterEvent, SpecificRecord, SpecificRecord> {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterQuotaProcessor.class);

  private final QuotaOptions options;
  private final Duration recomputeInterval;
  private final RecomputePacer pacer;
  private final EngineMetrics metrics;
  private final RestoreAudit restores;
  // Where each incarnation starts reading its inputs (issue 40.7).
  private final InputResumeAudit resumes;
  private InputResumeAudit.Incarnation resumed;
  private final Duration maxSilence;
  private final ClaimedDevices claimed;
  private final List<ClusterFeature> features;
  private final List<String> stores;
  // How often this processor was initialised: Kafka Streams initialises the same processor again
  // when it revives its task after closing it dirty.
  private int initialisations;
  // Set when the task's restore is refused: it must not compute on an incomplete state.
  private boolean restoreRefused;

  private ProcessorContext<SpecificRecord, SpecificRecord> context;
  private TaskTrees trees;
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
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.restores = Objects.requireNonNull(restores, "restores");
    this.resumes = Objects.requireNonNull(resumes, "resumes");
    this.maxSilence = config.get(EngineSettings.HEALTH_MAX_SILENCE);
    this.claimed = new ClaimedDevices(config.deviceClasses());
    this.features = ClusterFeatures.create(config, metrics);
    this.stores = ClusterFeatures.storeNames(features);
  }

  @Override
  public void init(final ProcessorContext<SpecificRecord, SpecificRecord> context) {
    // A task revived after a failure initialises its processors again: start from the stores only.
    trees = null;
    pacer.clear();
    punctuators.forEach(Cancellable::cancel);
    punctuators.clear();
    this.context = context;
    resumed = resumes.incarnation(context);
    if (refuseIncompleteRestore(context)) {
      return;
    }
    final TaskTrees task =
        new TaskTrees(context, metrics, options, claimed, pacer, features, punctuators);
    features.forEach(feature -> feature.init(task));

    final long started = System.nanoTime();
    final Map<String, String> unbuildable =
        StoredTrees.rebuild(
            task,
            features,
            context.getStateStore(TopologyNames.RUNTIME_STORE),
            context.getStateStore(TopologyNames.POD_ASSIGNMENTS_STORE));
    features.forEach(ClusterFeature::rebuilt);
    final Duration rebuilt = Duration.ofNanos(System.nanoTime() - started);
    // Rebuilt from the stores: a cluster quarantined by a poison record starts afresh, unless its
    // stored inputs cannot be rebuilt either; then it stays quarantined and the others go on.
    metrics.quarantine().release(task.routers.keySet());
    features.forEach(ClusterFeature::restored);
    unbuildable.forEach(
        (cluster, why) -> {
          LOG.error("cluster {}: quarantined: {}", cluster, why);
          metrics.quarantine().quarantine(cluster, why);
        });
    metrics.rebuilt(rebuilt);
    metrics.taskHolds(context.taskId().partition(), task.routers.size());
    LOG.info(
        "Task {} holds {} clusters {} in {} trees (rebuilt in {} ms)",
        context.taskId(),
        task.routers.size(),
        task.routers.keySet(),
        task.clusters.size(),
        rebuilt.toMillis());

    task.schedule(
        recomputeInterval,
        timestamp -> task.recompute(timestamp, cluster -> pacer.due(cluster, timestamp)));
    features.forEach(feature -> feature.schedule(task));
    punctuators.add(TaskHeartbeat.start(context, metrics.heartbeats(), maxSilence));
    trees = task;
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
      skipped = restores.skippedRestores(context.taskId().partition(), stores, reinitialised);
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
    for (final ClusterFeature feature : features) {
      if (feature.offered(record, now)) {
        return; // a feature's own event (an eviction result, a denial), or a fenced record
      }
    }
    if (event.getKind() == ClusterEventKind.MARKER) {
      pacer.arrived(cluster, record.timestamp(), now);
      return;
    }
    final InputId id = InputRouting.inputId(event);
    if (id == null) {
      LOG.warn(
          "Ignoring a cluster event of unknown kind from {}-{}@{}",
          event.getSourceTopic(),
          event.getSourcePartition(),
          event.getSourceOffset());
      return;
    }
    trees.put(cluster, id, InputRouting.value(event, id), event);
    pacer.arrived(cluster, record.timestamp(), now);
  }

  @Override
  public void close() {
    punctuators.forEach(Cancellable::cancel);
    punctuators.clear();
    features.forEach(ClusterFeature::close);
    if (trees != null) {
      trees.routers.keySet().forEach(metrics::clusterReleased);
    }
    if (context != null) {
      metrics.taskReleased(context.taskId().partition());
    }
    trees = null;
  }
}
