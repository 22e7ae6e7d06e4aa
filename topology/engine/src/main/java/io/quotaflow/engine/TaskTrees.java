package io.quotaflow.engine;

import io.quotaflow.dra.ClaimedDevices;
import io.quotaflow.engine.devices.ClusterDevices;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.engine.store.InputId;
import io.quotaflow.engine.store.InputId.InputKind;
import io.quotaflow.engine.store.KeyPrefixes;
import io.quotaflow.engine.task.ClusterFeature;
import io.quotaflow.engine.task.ClusterTask;
import io.quotaflow.engine.task.ClusterTree;
import io.quotaflow.engine.task.TreeKey;
import io.quotaflow.profile.QuotaTrees;
import io.quotaflow.profile.TreeOp;
import io.quotaflow.schemas.internal.ClusterEvent;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.TreeDelta;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one incarnation of a task holds for its clusters: which tree each input belongs to (each
 * cluster's {@link QuotaTrees} and devices), each tree's state, the trees waiting for a
 * recomputation, and the recomputation itself. It is what the features see of the task ({@link
 * ClusterTask}); a new one is made, and rebuilt from the stores ({@link StoredTrees}), each time
 * the task is initialised.
 */
final class TaskTrees implements ClusterTask {
  private static final Logger LOG = LoggerFactory.getLogger(TaskTrees.class);

  private final ProcessorContext<SpecificRecord, SpecificRecord> context;
  private final EngineMetrics metrics;
  private final QuotaOptions options;
  private final ClaimedDevices claimed;
  private final RecomputePacer pacer;
  private final List<ClusterFeature> features;
  private final List<Cancellable> punctuators;
  private final KeyValueStore<InputId, ClusterEvent> inputs;
  private final ClusterOutputs outputs;
  // Which tree each input of a cluster belongs to, and each tree's state: a change in one tree
  // marks only that tree dirty, so the others are not recomputed.
  final Map<String, QuotaTrees> routers = new HashMap<>();
  // Each cluster's DRA objects and pods with claims (docs/semantics.md section 22).
  final Map<String, ClusterDevices> devices = new HashMap<>();
  final Map<TreeKey, ClusterTree> clusters = new HashMap<>();
  final Set<TreeKey> dirty = new TreeSet<>();
  // The clusters whose stored state could not be rebuilt at the start (StoredTrees).
  final Set<String> leftOut = new HashSet<>();

  TaskTrees(
      final ProcessorContext<SpecificRecord, SpecificRecord> context,
      final EngineMetrics metrics,
      final QuotaOptions options,
      final ClaimedDevices claimed,
      final RecomputePacer pacer,
      final List<ClusterFeature> features,
      final List<Cancellable> punctuators) {
    this.context = context;
    this.metrics = metrics;
    this.options = options;
    this.claimed = claimed;
    this.pacer = pacer;
    this.features = features;
    this.punctuators = punctuators;
    this.inputs = context.getStateStore(TopologyNames.CLUSTER_INPUTS_STORE);
    this.outputs =
        new ClusterOutputs(
            context,
            context.getStateStore(TopologyNames.RUNTIME_STORE),
            context.getStateStore(TopologyNames.POD_ASSIGNMENTS_STORE),
            features);
  }

  QuotaOptions options() {
    return options;
  }

  ClaimedDevices claimed() {
    return claimed;
  }

  KeyValueStore<InputId, ClusterEvent> inputs() {
    return inputs;
  }

  @Override
  public ProcessorContext<SpecificRecord, SpecificRecord> context() {
    return context;
  }

  @Override
  public EngineMetrics metrics() {
    return metrics;
  }

  @Override
  public Collection<ClusterTree> trees() {
    return Collections.unmodifiableCollection(clusters.values());
  }

  @Override
  public Set<String> clusters() {
    return Collections.unmodifiableSet(routers.keySet());
  }

  @Override
  public void hold(final String cluster) {
    router(cluster);
  }

  @Override
  public boolean leftOut(final String cluster) {
    return leftOut.contains(cluster);
  }

  @Override
  public Optional<ClusterTree> treeOfGroup(final GroupId group) {
    final QuotaTrees router = routers.get(group.cluster());
    return router == null
        ? Optional.empty()
        : Optional.ofNullable(
            clusters.get(new TreeKey(group.cluster(), router.treeOfGroup(group.name()))));
  }

  @Override
  public ClusterTree defaultTree(final String cluster) {
    return tree(new TreeKey(cluster, QuotaTrees.DEFAULT_TREE));
  }

  @Override
  public void markDirty(final TreeKey tree) {
    dirty.add(tree);
  }

  @Override
  public boolean isDirty(final TreeKey tree) {
    return dirty.contains(tree);
  }

  @Override
  public boolean caughtUp(final String cluster, final long timestamp) {
    return pacer.caughtUp(cluster, timestamp);
  }

  @Override
  public boolean inBacklog(final String cluster, final long timestamp) {
    return pacer.inBacklog(cluster, timestamp);
  }

  @Override
  public void schedule(final Duration interval, final Punctuator punctuator) {
    punctuators.add(context.schedule(interval, PunctuationType.WALL_CLOCK_TIME, punctuator));
  }

  /** Stores a changed (or, with a null value, deleted) input and applies it to the trees. */
  void put(final String cluster, final InputId id, final Object value, final ClusterEvent event) {
    if (value == null) {
      inputs.delete(id);
    } else {
      inputs.put(id, event);
    }
    apply(cluster, id, value);
  }

  @Override
  public List<InputId> dropInputs(
      final String cluster, final InputKind kind, final Predicate<ClusterEvent> gone) {
    final List<InputId> dropped = new ArrayList<>();
    try (KeyValueIterator<InputId, ClusterEvent> all =
        inputs.prefixScan(new InputId(cluster, kind, "", ""), KeyPrefixes.inputsOf())) {
      while (all.hasNext()) {
        final KeyValue<InputId, ClusterEvent> entry = all.next();
        if (gone.test(entry.value)) {
          dropped.add(entry.key);
        }
      }
    }
    for (final InputId id : dropped) {
      inputs.delete(id);
      apply(cluster, id, null);
    }
    return dropped;
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
    applyOps(cluster, InputRouting.route(router(cluster), devices(cluster), id, value));
    if (id.kind() == InputKind.PODGROUP) {
      // Kept in the store for the admission plugin (a gang's first member judged whole); the
      // quota itself reads a gang's minMember from its pods, which the connectors fill.
      return;
    }
    if (id.kind() == InputKind.QUOTA) {
      metrics.ignoredNamesakes(cluster, router(cluster).ignoredNamesakes());
    }
    for (final ClusterFeature feature : features) {
      feature.inputChanged(cluster, id, value);
    }
  }

  /** Applies changes of a cluster's trees, marking each tree changed for the next recompute. */
  private void applyOps(final String cluster, final List<TreeOp> ops) {
    for (final TreeOp op : ops) {
      final ClusterTree tree = tree(new TreeKey(cluster, op.tree()));
      op.applyTo(tree.state());
      dirty.add(tree.key());
    }
  }

  @Override
  public void recompute(final long timestamp, final Predicate<String> chosen) {
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
    final Set<String> rewritten = new LinkedHashSet<>();
    for (final ClusterFeature feature : features) {
      rewritten.addAll(feature.recomputed(tree, now));
    }
    outputs.emit(tree, delta, rewritten, now);
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

  /** The pods of {@code cluster}'s trees whose label names a group not bound to their namespace. */
  private int unboundPods(final String cluster) {
    int count = 0;
    for (final String tree : router(cluster).trees()) {
      final ClusterTree held = clusters.get(new TreeKey(cluster, tree));
      count += held == null ? 0 : held.state().unboundPods();
    }
    return count;
  }

  ClusterTree tree(final TreeKey key) {
    return clusters.computeIfAbsent(key, k -> new ClusterTree(k, new ClusterQuotaState(options)));
  }

  private ClusterDevices devices(final String cluster) {
    return devices.computeIfAbsent(cluster, c -> ClusterDevices.reporting(c, claimed));
  }

  QuotaTrees router(final String cluster) {
    QuotaTrees router = routers.get(cluster);
    if (router == null) {
      router = new QuotaTrees(options);
      routers.put(cluster, router);
      metrics.taskHolds(context.taskId().partition(), routers.size());
    }
    return router;
  }
}
