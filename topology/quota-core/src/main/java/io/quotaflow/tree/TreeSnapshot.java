package io.quotaflow.tree;

import io.quotaflow.quota.ResourceList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An immutable result of one cluster's computation.
 *
 * @param total the cluster total (sum of allocatable of counted nodes)
 * @param groups every group, the root and the special groups included: the root first, then
 *     depth-first with siblings by name; invalid groups (cycles, missing parents) after the rest,
 *     by name
 * @param pods every pod's assignment, ordered by namespace then name
 */
public record TreeSnapshot(ResourceList total, List<GroupStatus> groups, List<PodAssignment> pods) {

  public TreeSnapshot {
    Objects.requireNonNull(total, "total");
    groups = List.copyOf(groups);
    pods = List.copyOf(pods);
  }

  public Optional<GroupStatus> group(String name) {
    return groups.stream().filter(g -> g.name().equals(name)).findFirst();
  }
}
