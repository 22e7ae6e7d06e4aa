package io.quotaflow.engine.task;

import io.quotaflow.eviction.OverUse;
import io.quotaflow.quota.PodRef;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.TreeDelta;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a task holds in memory for one quota tree of one cluster: the core's incremental state, and
 * small indexes of what the stores hold, so that emitting a change never needs a scan. Rebuilt from
 * the stores when the task starts; owned by one stream thread.
 */
public final class ClusterTree {
  private final String cluster;
  private final String tree;
  private final ClusterQuotaState state;
  // The group each pod is filed under in the pod-assignments store.
  private final Map<PodRef, String> filedGroup = new HashMap<>();
  // Every group with a record in the runtime store.
  private final Set<String> groups = new TreeSet<>();
  // The groups whose last emitted status is over-used: all that the reclaim check has to look at.
  private final Set<String> overUsed = new TreeSet<>();
  // Mirror of the over-used-since store for this cluster, epoch millis.
  private final Map<String, Long> overUsedSince = new HashMap<>();

  public ClusterTree(final TreeKey key, final ClusterQuotaState state) {
    this.cluster = key.cluster();
    this.tree = key.tree();
    this.state = Objects.requireNonNull(state, "state");
  }

  public String cluster() {
    return cluster;
  }

  /** The quota tree of the cluster this is (the default tree without profiles). */
  public String tree() {
    return tree;
  }

  public TreeKey key() {
    return new TreeKey(cluster, tree);
  }

  public ClusterQuotaState state() {
    return state;
  }

  public Map<PodRef, String> filedGroup() {
    return filedGroup;
  }

  public Set<String> groups() {
    return groups;
  }

  /** The groups over-used as of the last emitted change, in name order. */
  public Set<String> overUsed() {
    return overUsed;
  }

  public Map<String, Long> overUsedSince() {
    return overUsedSince;
  }

  /** Keeps the group indexes in step with an emitted delta. */
  public void noteGroups(final TreeDelta delta) {
    delta.changedGroups().forEach(this::noteGroup);
    delta.removedGroups().forEach(this::forgetGroup);
  }

  /** Notes one group's status, emitted or restored from the runtime store. */
  public void noteGroup(final GroupStatus status) {
    groups.add(status.name());
    if (OverUse.of(status).isPresent()) {
      overUsed.add(status.name());
    } else {
      overUsed.remove(status.name());
    }
  }

  private void forgetGroup(final String name) {
    groups.remove(name);
    overUsed.remove(name);
  }
}
