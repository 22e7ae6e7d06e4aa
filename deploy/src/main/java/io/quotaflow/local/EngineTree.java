package io.quotaflow.local;

import io.quotaflow.engine.query.PodInGroup;
import io.quotaflow.engine.query.RuntimeQueries;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.QuotaCalculator;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.TreeSnapshot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One cluster's tree as the engine last computed it, read back from its queryable stores and put in
 * the shape {@code simulate} prints: groups in tree order (parents before children, siblings by
 * name), then the pods by namespace and name.
 */
final class EngineTree {

  private EngineTree() {}

  /**
   * The engine's current tree of {@code cluster}, with {@code nodes} giving the cluster total (the
   * stores keep runtimes, not the total); empty while the engine has no groups for it.
   */
  static Optional<TreeSnapshot> read(
      final RuntimeQueries queries,
      final String cluster,
      final List<QuotaNode> nodes,
      final QuotaOptions options) {
    final List<GroupStatus> groups = queries.tree(cluster);
    if (groups.isEmpty()) {
      return Optional.empty();
    }
    final List<PodAssignment> pods = new ArrayList<>();
    for (final GroupStatus group : groups) {
      for (final PodInGroup pod : queries.podsOf(cluster, group.name())) {
        pods.add(new PodAssignment(pod.ref(), group.name(), pod.podClass(), Optional.empty()));
      }
    }
    pods.sort(Comparator.comparing(PodAssignment::ref));
    return Optional.of(new TreeSnapshot(total(nodes, options), treeOrder(groups), pods));
  }

  /** What the nodes add up to, by the quota core's own rules (which nodes count). */
  static ResourceList total(final List<QuotaNode> nodes, final QuotaOptions options) {
    return QuotaCalculator.compute(new ClusterInputs(List.of(), List.of(), nodes), options).total();
  }

  /** Parents before their children, siblings by name; groups whose parent is unknown are roots. */
  static List<GroupStatus> treeOrder(final List<GroupStatus> groups) {
    final Map<String, List<GroupStatus>> children = new HashMap<>();
    final Set<String> names = new HashSet<>();
    groups.forEach(group -> names.add(group.name()));
    final List<GroupStatus> roots = new ArrayList<>();
    for (final GroupStatus group : groups) {
      if (names.contains(group.parent()) && !group.parent().equals(group.name())) {
        children.computeIfAbsent(group.parent(), parent -> new ArrayList<>()).add(group);
      } else {
        roots.add(group);
      }
    }
    final List<GroupStatus> ordered = new ArrayList<>();
    final Set<String> visited = new HashSet<>();
    roots.sort(Comparator.comparing(GroupStatus::name));
    roots.forEach(root -> visit(root, children, visited, ordered));
    // A parent cycle has no root: show its groups at the end rather than lose them.
    groups.stream()
        .filter(group -> !visited.contains(group.name()))
        .sorted(Comparator.comparing(GroupStatus::name))
        .forEach(ordered::add);
    return List.copyOf(ordered);
  }

  private static void visit(
      final GroupStatus group,
      final Map<String, List<GroupStatus>> children,
      final Set<String> visited,
      final List<GroupStatus> ordered) {
    if (!visited.add(group.name())) {
      return;
    }
    ordered.add(group);
    final List<GroupStatus> below = new ArrayList<>(children.getOrDefault(group.name(), List.of()));
    below.sort(Comparator.comparing(GroupStatus::name));
    below.forEach(child -> visit(child, children, visited, ordered));
  }
}
