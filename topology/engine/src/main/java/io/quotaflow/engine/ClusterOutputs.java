package io.quotaflow.engine;

import io.quotaflow.engine.convert.OutputRecords;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.engine.store.GroupPodId;
import io.quotaflow.engine.task.ClusterFeature;
import io.quotaflow.engine.task.ClusterTree;
import io.quotaflow.profile.QuotaTrees;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodQuotaClass;
import io.quotaflow.schemas.QuotaClass;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.TreeDelta;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Writes one recomputation of one quota tree: each changed group the tree reports (a profile's tree
 * keeps its virtual root and special groups to itself) to the runtime store and runtime.v1 (a
 * tombstone for a removed group; a group whose own pod request changed counts as changed), each
 * changed pod assignment to the pod-assignments store, and a pod's record on pod-classes.v1 only
 * when what it says changes (a tombstone once the pod is gone or no longer has a class). The
 * features fill in their fields of each runtime record and see it written ({@link
 * ClusterFeature#completeRuntime}, {@link ClusterFeature#runtimeWritten}).
 */
final class ClusterOutputs {
  private final ProcessorContext<SpecificRecord, SpecificRecord> context;
  private final KeyValueStore<GroupId, GroupRuntime> runtime;
  private final KeyValueStore<GroupPodId, PodQuotaClass> assignments;
  private final List<ClusterFeature> features;

  ClusterOutputs(
      final ProcessorContext<SpecificRecord, SpecificRecord> context,
      final KeyValueStore<GroupId, GroupRuntime> runtime,
      final KeyValueStore<GroupPodId, PodQuotaClass> assignments,
      final List<ClusterFeature> features) {
    this.context = context;
    this.runtime = runtime;
    this.assignments = assignments;
    this.features = features;
  }

  /**
   * Writes {@code delta}, and the runtime record of every group of {@code rewritten} (what a
   * feature adds to it changed) whose status did not.
   */
  void emit(
      final ClusterTree tree,
      final TreeDelta delta,
      final Set<String> rewritten,
      final Instant now) {
    final String cluster = tree.cluster();
    final long timestamp = now.toEpochMilli();
    final ClusterQuotaState state = tree.state();
    final Set<String> emitted = new HashSet<>();
    for (final GroupStatus status : delta.changedGroups()) {
      emitted.add(status.name());
      if (QuotaTrees.reports(tree.tree(), status.name())) {
        publishRuntime(tree, status, ownRequest(state, status.name()), now);
      }
    }
    // The admission check needs each group's own request current; it changes without the status
    // where the group's request sits at its floor, so those groups are emitted too.
    for (final String group : state.chargedGroups()) {
      if (emitted.contains(group)) {
        continue;
      }
      final GroupRuntime stored = runtime.get(new GroupId(cluster, group));
      final ResourceList own = ownRequest(state, group);
      final Optional<GroupStatus> status = state.group(group);
      if (stored != null && status.isPresent() && !OutputRecords.ownRequest(stored).equals(own)) {
        publishRuntime(tree, status.get(), own, now);
      }
    }
    for (final String group : rewritten) {
      final Optional<GroupStatus> status = state.group(group);
      if (emitted.add(group) && status.isPresent() && !delta.removedGroups().contains(group)) {
        publishRuntime(tree, status.get(), ownRequest(state, group), now);
      }
    }
    for (final String group : delta.removedGroups()) {
      if (!QuotaTrees.reports(tree.tree(), group)) {
        continue;
      }
      final GroupId id = new GroupId(cluster, group);
      for (final ClusterFeature feature : features) {
        feature.runtimeWritten(id, now, () -> runtime.get(id), null);
      }
      runtime.delete(id);
      context.forward(
          new Record<SpecificRecord, SpecificRecord>(new QuotaKey(cluster, group), null, timestamp),
          TopologyNames.RUNTIME_SINK);
    }
    tree.noteGroups(delta);

    for (final PodAssignment assignment : delta.changedPods()) {
      final PodRef ref = assignment.ref();
      final GroupPodId key = GroupPodId.of(cluster, assignment.group(), ref);
      // A pod still filed under the same group is overwritten in place: no tombstone first.
      final PodQuotaClass before =
          assignment.group().equals(tree.filedGroup().get(ref))
              ? assignments.get(key)
              : unfile(tree, ref);
      final PodQuotaClass after = OutputRecords.assignment(assignment, podUid(state, ref));
      assignments.put(key, after);
      tree.filedGroup().put(ref, assignment.group());
      publishClass(cluster, ref, before, after, timestamp);
    }
    for (final PodRef ref : delta.removedPods()) {
      final PodQuotaClass before = unfile(tree, ref);
      publishClass(cluster, ref, before, null, timestamp);
    }
  }

  private void publishRuntime(
      final ClusterTree tree,
      final GroupStatus status,
      final ResourceList ownRequest,
      final Instant now) {
    final String cluster = tree.cluster();
    final GroupId id = new GroupId(cluster, status.name());
    final GroupRuntime record =
        completed(id, OutputRecords.runtimeBuilder(status, ownRequest, tree.tree(), now));
    for (final ClusterFeature feature : features) {
      feature.runtimeWritten(id, now, () -> runtime.get(id), record);
    }
    runtime.put(id, record);
    context.forward(
        new Record<SpecificRecord, SpecificRecord>(
            new QuotaKey(cluster, status.name()), record, now.toEpochMilli()),
        TopologyNames.RUNTIME_SINK);
  }

  /** The record with the fields the features own filled in. */
  private GroupRuntime completed(final GroupId id, final GroupRuntime.Builder record) {
    for (final ClusterFeature feature : features) {
      feature.completeRuntime(id, record);
    }
    return record.build();
  }

  private static ResourceList ownRequest(final ClusterQuotaState state, final String group) {
    return state.ownRequest(group).orElse(ResourceList.empty());
  }

  /** Removes a pod's entry from the pod-assignments store and returns it (null if none). */
  private PodQuotaClass unfile(final ClusterTree tree, final PodRef ref) {
    final String group = tree.filedGroup().remove(ref);
    return group == null ? null : assignments.delete(GroupPodId.of(tree.cluster(), group, ref));
  }

  private void publishClass(
      final String cluster,
      final PodRef ref,
      final PodQuotaClass before,
      final PodQuotaClass after,
      final long timestamp) {
    final PodQuotaClass published = hasClass(before) ? before : null;
    final PodQuotaClass next = hasClass(after) ? after : null;
    if (next == null ? published == null : next.equals(published)) {
      return;
    }
    context.forward(
        new Record<SpecificRecord, SpecificRecord>(
            new PodKey(cluster, ref.namespace(), ref.name()), next, timestamp),
        TopologyNames.POD_CLASSES_SINK);
  }

  private static boolean hasClass(final PodQuotaClass record) {
    return record != null && record.getQuotaClass() != QuotaClass.UNKNOWN;
  }

  private static String podUid(final ClusterQuotaState state, final PodRef ref) {
    return state.podInput(ref).map(QuotaPod::uid).orElse("");
  }
}
