package io.quotaflow.tree;

import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a what-if recomputation ({@link WhatIfRuntimes}) reads of one cluster's last result: group
 * statuses, who the children of a group are, the group specifications (for the request floor and
 * the effective max) and the request of the pods charged to a leaf. Implemented over a {@link
 * ClusterQuotaState}, over a snapshot with its specifications, and by the admission plugin over the
 * engine's stores.
 */
public interface WhatIfInputs {

  /** The last computed status of group {@code name}. */
  Optional<GroupStatus> status(String name);

  /**
   * The statuses of the groups whose parent is {@code parent} ({@link SpecialGroups#ROOT} for the
   * first level), in any order; invalid and special groups may be included (they are skipped).
   */
  List<GroupStatus> children(String parent);

  /** The specification of group {@code name}, as last read. */
  Optional<QuotaGroup> spec(String name);

  /**
   * What the pods charged to leaf {@code group} request, before the request floor is applied; empty
   * when not known (the what-if then uses a lower bound, see {@link WhatIfRuntimes}).
   */
  Optional<ResourceList> ownRequest(String group);

  /**
   * Whether group {@code name} is the root of a profile's quota tree (docs/semantics.md section
   * 15): the what-if then stops below it and takes its runtime, the tree's total, as what it
   * distributes, as the tree's own computation does. False where every group is in one tree.
   */
  default boolean headsTree(String name) {
    return false;
  }

  /**
   * Inputs over one computed snapshot, the specifications it was computed from and each leaf's own
   * request (indexed once).
   */
  static WhatIfInputs of(
      TreeSnapshot snapshot, List<QuotaGroup> specs, Map<String, ResourceList> ownRequests) {
    final Map<String, GroupStatus> byName = new HashMap<>();
    final Map<String, List<GroupStatus>> byParent = new HashMap<>();
    for (final GroupStatus status : snapshot.groups()) {
      byName.put(status.name(), status);
      byParent.computeIfAbsent(status.parent(), p -> new ArrayList<>()).add(status);
    }
    final Map<String, QuotaGroup> specByName = new HashMap<>();
    specs.forEach(spec -> specByName.put(spec.name(), spec));
    final Map<String, ResourceList> own = Map.copyOf(ownRequests);
    return new WhatIfInputs() {
      @Override
      public Optional<GroupStatus> status(String name) {
        return Optional.ofNullable(byName.get(name));
      }

      @Override
      public List<GroupStatus> children(String parent) {
        return byParent.getOrDefault(parent, List.of());
      }

      @Override
      public Optional<QuotaGroup> spec(String name) {
        return Optional.ofNullable(specByName.get(name));
      }

      @Override
      public Optional<ResourceList> ownRequest(String group) {
        return Optional.ofNullable(own.get(group));
      }
    };
  }
}
