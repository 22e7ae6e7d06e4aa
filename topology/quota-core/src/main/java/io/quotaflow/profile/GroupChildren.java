package io.quotaflow.profile;

import io.quotaflow.quota.QuotaGroup;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The groups of a cluster by the parent they name (whether that parent exists or not): the groups a
 * change of one group can move to another tree are it and those below it. Not thread-safe.
 */
final class GroupChildren {

  private final Map<String, Set<String>> byParent = new HashMap<>();

  /** Files {@code now} in place of {@code before} (either may be null). */
  void replace(QuotaGroup before, QuotaGroup now) {
    if (before != null) {
      final Set<String> siblings = byParent.get(before.parent());
      if (siblings != null) {
        siblings.remove(before.name());
        if (siblings.isEmpty()) {
          byParent.remove(before.parent());
        }
      }
    }
    if (now != null) {
      byParent.computeIfAbsent(now.parent(), p -> new HashSet<>()).add(now.name());
    }
  }

  /** {@code name} and every group below it by parent links (a cycle is visited once). */
  Set<String> selfAndDescendants(String name) {
    final Set<String> seen = new LinkedHashSet<>();
    final ArrayDeque<String> next = new ArrayDeque<>();
    next.add(name);
    while (!next.isEmpty()) {
      final String member = next.poll();
      if (seen.add(member)) {
        next.addAll(byParent.getOrDefault(member, Set.of()));
      }
    }
    return seen;
  }
}
