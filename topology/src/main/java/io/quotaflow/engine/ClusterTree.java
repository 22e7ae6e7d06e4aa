package io.quotaflow.engine;

import io.quotaflow.quota.PodRef;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.TreeDelta;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a task holds in memory for one cluster: the core's incremental state, and small indexes of
 * what the stores hold, so that emitting a change never needs a scan. Rebuilt from the stores when
 * the task starts; owned by one stream thread.
 */
final class ClusterTree {
  private final String cluster;
  private final ClusterQuotaState state;
  // The group each pod is filed under in the pod-assignments store.
  private final Map<PodRef, String> filedGroup = new HashMap<>();
  // Every group with a record in the runtime store.
  private final Set<String> groups = new TreeSet<>();
  // Mirror of the over-used-since store for this cluster, epoch millis.
  private final Map<String, Long> overUsedSince = new HashMap<>();

  ClusterTree(final String cluster, final ClusterQuotaState state) {
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.state = Objects.requireNonNull(state, "state");
  }

  String cluster() {
    return cluster;
  }

  ClusterQuotaState state() {
    return state;
  }

  Map<PodRef, String> filedGroup() {
    return filedGroup;
  }

  Set<String> groups() {
    return groups;
  }

  Map<String, Long> overUsedSince() {
    return overUsedSince;
  }

  /** Keeps the group index in step with an emitted delta. */
  void noteGroups(final TreeDelta delta) {
    delta.changedGroups().forEach(status -> groups.add(status.name()));
    delta.removedGroups().forEach(groups::remove);
  }
}
