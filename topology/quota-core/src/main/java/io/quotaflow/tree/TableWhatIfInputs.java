package io.quotaflow.tree;

import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The last result held in a {@link GroupTable} as {@link WhatIfInputs} (SPEC 10: the runtimes a pod
 * would leave its group and ancestors), read in place rather than copied: the admission check asks
 * for a few groups of a large tree.
 */
final class TableWhatIfInputs implements WhatIfInputs {

  private final GroupTable t;

  TableWhatIfInputs(GroupTable t) {
    this.t = t;
  }

  @Override
  public Optional<GroupStatus> status(String name) {
    if (SpecialGroups.ROOT.equals(name)) {
      return Optional.ofNullable(t.status[GroupTable.ROOT]);
    }
    final Integer slot = t.index.get(name);
    return slot == null ? Optional.empty() : Optional.ofNullable(t.status[slot]);
  }

  @Override
  public List<GroupStatus> children(String parent) {
    final Integer slot =
        SpecialGroups.ROOT.equals(parent) ? Integer.valueOf(GroupTable.ROOT) : t.index.get(parent);
    if (slot == null) {
      return List.of();
    }
    final List<GroupStatus> result = new ArrayList<>();
    for (final int c : t.children[slot]) {
      if (t.status[c] != null) {
        result.add(t.status[c]);
      }
    }
    return result;
  }

  @Override
  public Optional<QuotaGroup> spec(String name) {
    final Integer slot = t.index.get(name);
    return slot == null ? Optional.empty() : Optional.ofNullable(t.spec[slot]);
  }

  @Override
  public Optional<ResourceList> ownRequest(String group) {
    final Integer slot = t.index.get(group);
    if (slot == null || SpecialGroups.ROOT.equals(group)) {
      return Optional.empty();
    }
    final ResourceList.Builder builder = ResourceList.builder();
    for (int d = 0; d < t.dims.count(); d++) {
      if (t.tracked[d][slot]) {
        builder.put(t.dims.name(d), t.ownRequest.get(d, slot));
      }
    }
    return Optional.of(builder.build());
  }
}
