package io.quotaflow.rules;

import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.TreeSnapshot;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the last computed status of a group by name: backed by a snapshot in tests and tools, by
 * the queryable runtime store in the admission plugin.
 */
@FunctionalInterface
public interface GroupLookup {

  Optional<GroupStatus> find(String name);

  /** A lookup over one snapshot (indexed once). */
  static GroupLookup of(TreeSnapshot snapshot) {
    final Map<String, GroupStatus> byName = new HashMap<>();
    snapshot.groups().forEach(status -> byName.put(status.name(), status));
    return name -> Optional.ofNullable(byName.get(name));
  }
}
