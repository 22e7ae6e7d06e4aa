package io.quotaflow.tree;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.ResourceList;
import java.util.List;
import java.util.Objects;

/**
 * What one recomputation of {@link ClusterQuotaState} changed: exactly the groups whose {@link
 * GroupStatus} differs from the last one handed out (siblings included), the groups that are gone,
 * and the same for pod assignments.
 *
 * @param total the cluster total after the recomputation
 * @param changedGroups new or changed group statuses, in snapshot order
 * @param removedGroups names of groups that no longer exist, sorted
 * @param changedPods new or changed pod assignments, by namespace then name
 * @param removedPods pods that no longer exist, sorted
 */
public record TreeDelta(
    ResourceList total,
    List<GroupStatus> changedGroups,
    List<String> removedGroups,
    List<PodAssignment> changedPods,
    List<PodRef> removedPods) {

  public TreeDelta {
    Objects.requireNonNull(total, "total");
    changedGroups = List.copyOf(changedGroups);
    removedGroups = List.copyOf(removedGroups);
    changedPods = List.copyOf(changedPods);
    removedPods = List.copyOf(removedPods);
  }

  /** Nothing changed. */
  public boolean isEmpty() {
    return changedGroups.isEmpty()
        && removedGroups.isEmpty()
        && changedPods.isEmpty()
        && removedPods.isEmpty();
  }
}
