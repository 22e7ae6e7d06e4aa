package io.quotaflow.engine;

import io.quotaflow.engine.convert.InputRecords;
import io.quotaflow.engine.convert.OutputRecords;
import io.quotaflow.engine.devices.ClusterDevices;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.engine.store.GroupPodId;
import io.quotaflow.engine.store.InputId;
import io.quotaflow.engine.task.ClusterFeature;
import io.quotaflow.engine.task.ClusterTree;
import io.quotaflow.engine.task.TreeKey;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.profile.QuotaTrees;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodQuotaClass;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.QuotaProfileSpec;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.schemas.internal.ClusterEvent;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.TreeSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Rebuilds every cluster of a task from the stores: the inputs routed to their trees, each tree's
 * inputs into a fresh state, and the last emitted results as that state's previous result (filed
 * under the tree the group or pod is in now), so the first recomputation emits only what the stores
 * do not already say; each feature sees each rebuilt tree ({@link ClusterFeature#treeRestored}). A
 * cluster whose stored inputs cannot be rebuilt (a poison record that broke its processing is in
 * them, and breaks the rebuild too) is left out, so that one record cannot stop every instance that
 * takes the task over in turn.
 */
final class StoredTrees {
  private StoredTrees() {}

  /**
   * Rebuilds {@code task}'s trees.
   *
   * @return the clusters left out, with why
   */
  static Map<String, String> rebuild(
      final TaskTrees task,
      final List<ClusterFeature> features,
      final KeyValueStore<GroupId, GroupRuntime> runtime,
      final KeyValueStore<GroupPodId, PodQuotaClass> assignments) {
    final QuotaOptions options = task.options();
    final Map<String, Restored> restored = new TreeMap<>();
    final Map<String, String> failed = new TreeMap<>();
    try (KeyValueIterator<InputId, ClusterEvent> all = task.inputs().all()) {
      while (all.hasNext()) {
        final KeyValue<InputId, ClusterEvent> entry = all.next();
        final String cluster = entry.key.cluster();
        try {
          restored
              .computeIfAbsent(
                  cluster, c -> new Restored(ClusterDevices.reporting(c, task.claimed())))
              .add(entry.key, InputRouting.value(entry.value, entry.key));
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
            task.routers.put(cluster, router);
            task.devices.put(cluster, parts.devices);
            task.metrics().ignoredNamesakes(cluster, router.ignoredNamesakes());
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
                new TreeKey(cluster, task.router(cluster).treeOfGroup(entry.key.name())),
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
            new TreeKey(
                cluster, task.router(cluster).treeOfPod(ref).orElse(QuotaTrees.DEFAULT_TREE));
        pods.computeIfAbsent(key, k -> new ArrayList<>())
            .add(OutputRecords.assignment(ref, entry.value));
        filed.computeIfAbsent(key, k -> new HashMap<>()).put(ref, entry.key.group());
      }
    }
    final Set<TreeKey> keys = new TreeSet<>(statuses.keySet());
    keys.addAll(pods.keySet());
    task.routers.forEach(
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
                task.router(key.cluster()).inputs(key.tree()),
                new TreeSnapshot(rootRuntime(groups), groups, pods.getOrDefault(key, List.of())));
        final ClusterTree tree = new ClusterTree(key, state);
        groups.forEach(tree::noteGroup);
        task.metrics().groupsChanged(key.cluster(), groups, List.of());
        tree.filedGroup().putAll(filed.getOrDefault(key, Map.of()));
        final Restored parts = restored.get(key.cluster());
        final List<QuotaGroup> specs = parts == null ? List.of() : parts.groupSpecs;
        for (final ClusterFeature feature : features) {
          feature.treeRestored(tree, specs);
        }
        task.clusters.put(key, tree);
        task.dirty.add(key);
      } catch (RuntimeException e) {
        failed.put(key.cluster(), "rebuilding tree " + key + " from the stores failed: " + e);
      }
    }
    // A cluster left out keeps nothing half rebuilt: it is quarantined until its task is
    // re-created.
    task.clusters.keySet().removeIf(key -> failed.containsKey(key.cluster()));
    task.dirty.removeIf(key -> failed.containsKey(key.cluster()));
    task.routers.keySet().removeAll(failed.keySet());
    task.devices.keySet().removeAll(failed.keySet());
    task.leftOut.addAll(failed.keySet());
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
          // Not an input of the trees (see TaskTrees.apply).
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
