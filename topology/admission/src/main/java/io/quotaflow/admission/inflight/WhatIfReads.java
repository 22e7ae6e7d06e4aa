package io.quotaflow.admission.inflight;

import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.rules.GroupLookup;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.WhatIfInputs;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What one admission decision reads of a cluster's view: each group read once however often the
 * check's walk, its what-if and an explanation ask, and read before the cluster's lock is taken so
 * that the lock is held briefly.
 */
public final class WhatIfReads {

  private WhatIfReads() {}

  /**
   * The view as the what-if reads it, each group's status, children, specification and own request
   * read once per decision however often the walk, the what-if and the check ask.
   */
  public static WhatIfInputs of(ClusterView view) {
    final Map<String, Optional<GroupStatus>> statuses = new HashMap<>();
    final Map<String, List<GroupStatus>> children = new HashMap<>();
    final Map<String, Optional<QuotaGroup>> quotas = new HashMap<>();
    final Map<String, Optional<ResourceList>> own = new HashMap<>();
    return new WhatIfInputs() {
      // The profile trees' roots, read once per decision (none in a cluster without profiles).
      private Set<String> roots;

      @Override
      public Optional<GroupStatus> status(String name) {
        return statuses.computeIfAbsent(name, view::group);
      }

      @Override
      public List<GroupStatus> children(String parent) {
        return children.computeIfAbsent(parent, view::children);
      }

      @Override
      public Optional<QuotaGroup> spec(String name) {
        return quotas.computeIfAbsent(name, view::quota);
      }

      @Override
      public Optional<ResourceList> ownRequest(String group) {
        return own.computeIfAbsent(group, view::ownRequest);
      }

      @Override
      public boolean headsTree(String name) {
        if (roots == null) {
          roots = view.treeRoots();
        }
        return roots.contains(name);
      }
    };
  }

  /** Reads what the what-if will read before the lock is taken, so the lock is held briefly. */
  static void prefetch(WhatIfInputs state, String group, List<String> chain) {
    state.status(SpecialGroups.ROOT);
    state.ownRequest(group);
    state.headsTree(group);
    if (!chain.isEmpty()) {
      state.headsTree(chain.get(chain.size() - 1));
    }
    for (final String name : chain) {
      state.spec(name);
      state
          .status(name)
          .ifPresent(
              status -> state.children(status.parent()).forEach(c -> state.headsTree(c.name())));
    }
  }

  /** The pod's group and its ancestors below the root, as the check walks them. */
  static List<String> chain(String group, GroupLookup groups) {
    final List<String> chain = new ArrayList<>();
    final Set<String> seen = new HashSet<>();
    String name = group;
    while (!SpecialGroups.ROOT.equals(name) && !name.isEmpty() && seen.add(name)) {
      final Optional<GroupStatus> status = groups.find(name);
      if (status.isEmpty()) {
        break;
      }
      chain.add(name);
      name = status.get().parent();
    }
    return chain;
  }
}
