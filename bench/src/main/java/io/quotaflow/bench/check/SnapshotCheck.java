package io.quotaflow.bench.check;

import io.quotaflow.bench.cluster.Dimensions;
import io.quotaflow.bench.cluster.SyntheticCluster;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.TreeSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Proves that a computed snapshot of a synthetic cluster is a real answer, so that a benchmark
 * cannot be timing a shortcut: every group is there and valid, the root holds the cluster total, no
 * parent hands out more than it has, the whole total reaches the first level (the leaves ask for
 * more than the cluster has) and borrowers really received surplus above their min.
 */
public final class SnapshotCheck {

  private SnapshotCheck() {}

  /** Every violation found, empty when the snapshot is sane. */
  public static List<String> violations(TreeSnapshot snapshot, SyntheticCluster cluster) {
    final List<String> violations = new ArrayList<>();
    final Map<String, GroupStatus> byName = new HashMap<>();
    final Map<String, List<GroupStatus>> children = new HashMap<>();
    for (final GroupStatus status : snapshot.groups()) {
      byName.put(status.name(), status);
      children.computeIfAbsent(status.parent(), parent -> new ArrayList<>()).add(status);
    }
    for (final QuotaGroup group : cluster.inputs().groups()) {
      final GroupStatus status = byName.get(group.name());
      if (status == null) {
        violations.add("missing group " + group.name());
      } else if (!status.valid()) {
        violations.add(group.name() + " is invalid: " + status.reason().orElse("?"));
      }
    }
    final GroupStatus root = byName.get(SpecialGroups.ROOT);
    if (root == null) {
      violations.add("missing root");
      return violations;
    }
    for (final String dimension : Dimensions.ALL) {
      if (root.runtime().get(dimension) != cluster.total().get(dimension)) {
        violations.add("root runtime " + root.runtime() + " is not the total " + cluster.total());
      }
      final List<GroupStatus> firstLevel =
          children.getOrDefault(SpecialGroups.ROOT, List.of()).stream()
              .filter(status -> !SpecialGroups.isSpecial(status.name()))
              .toList();
      final long held = firstLevel.stream().mapToLong(s -> s.runtime().get(dimension)).sum();
      final long asked =
          firstLevel.stream().mapToLong(s -> s.limitedRequest().get(dimension)).sum();
      // Everything is handed out unless the first level asks for less (SPEC 7.4).
      final long expected = Math.min(cluster.total().get(dimension), asked);
      if (held != expected) {
        violations.add(
            "first level holds "
                + held
                + " "
                + dimension
                + " where min(total, limited requests) is "
                + expected);
      }
    }
    children.forEach(
        (parentName, kids) -> {
          final GroupStatus parent = byName.get(parentName);
          if (parent == null) {
            return;
          }
          for (final String dimension : Dimensions.ALL) {
            // The system and default groups are capped by their own max, outside the split.
            final long handedOut =
                kids.stream()
                    .filter(kid -> !SpecialGroups.isSpecial(kid.name()))
                    .mapToLong(kid -> kid.runtime().get(dimension))
                    .sum();
            if (handedOut > parent.runtime().get(dimension)) {
              violations.add(
                  parentName
                      + " hands out "
                      + handedOut
                      + " "
                      + dimension
                      + " but holds "
                      + parent.runtime().get(dimension));
            }
          }
        });
    final long aboveMin =
        snapshot.groups().stream()
            .filter(s -> s.runtime().get(Dimensions.CPU) > s.min().get(Dimensions.CPU))
            .filter(s -> !s.name().equals(SpecialGroups.ROOT))
            .count();
    if (aboveMin < cluster.inputs().groups().size() / 10) {
      violations.add("only " + aboveMin + " groups received cpu above their min");
    }
    return violations;
  }

  /** Throws when the snapshot is not sane; returns it otherwise. */
  public static TreeSnapshot requireSane(TreeSnapshot snapshot, SyntheticCluster cluster) {
    final List<String> violations = violations(snapshot, cluster);
    if (!violations.isEmpty()) {
      throw new IllegalStateException(
          violations.size()
              + " violations, first: "
              + violations.subList(0, Math.min(5, violations.size())));
    }
    return snapshot;
  }
}
