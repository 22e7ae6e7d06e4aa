package io.quotaflow.local;

import io.quotaflow.profile.MultiTreeCalculator.TreeResult;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.profile.QuotaTrees;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.reservation.ReservationStatus;
import io.quotaflow.simulate.TreeReport;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.TreeSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A cluster's engine state split into its quota trees, as {@code simulate} prints a cluster with
 * ElasticQuotaProfiles: the default tree first, then each profile's tree, each with its own total
 * (its pool's nodes times the ratio), groups, pods and reservations.
 */
final class EngineTrees {

  private EngineTrees() {}

  /**
   * Splits {@code whole}, the engine's groups of the cluster in tree order with their pods, by the
   * tree each group's runtime record names ({@code treeOfGroup}; a group absent from it is in the
   * default tree).
   *
   * @param nodes the cluster's nodes, for the profiles' pools and totals
   * @param profiles the cluster's ElasticQuotaProfiles; the trees are those simulate accepts
   */
  static List<TreeReport> split(
      final TreeSnapshot whole,
      final Map<String, String> treeOfGroup,
      final List<QuotaNode> nodes,
      final List<QuotaProfile> profiles,
      final Map<String, ReservationStatus> reservations,
      final QuotaOptions options) {
    final QuotaTrees trees =
        QuotaTrees.of(new ClusterInputs(List.of(), List.of(), nodes), profiles, options);
    // A tree the engine knows before the printer lists its profile shows in the default tree.
    final Set<String> known = new HashSet<>(trees.trees());
    final Map<String, String> groupTree = new HashMap<>();
    for (final GroupStatus group : whole.groups()) {
      final String tree = treeOfGroup.getOrDefault(group.name(), QuotaTrees.DEFAULT_TREE);
      groupTree.put(group.name(), known.contains(tree) ? tree : QuotaTrees.DEFAULT_TREE);
    }
    final List<TreeReport> reports = new ArrayList<>();
    for (final String tree : trees.trees()) {
      final List<GroupStatus> groups =
          whole.groups().stream()
              .filter(group -> tree.equals(groupTree.get(group.name())))
              .toList();
      final List<PodAssignment> pods =
          whole.pods().stream().filter(pod -> tree.equals(groupTree.get(pod.group()))).toList();
      final Map<String, ReservationStatus> own = new HashMap<>();
      reservations.forEach(
          (group, status) -> {
            if (tree.equals(groupTree.get(group))) {
              own.put(group, status);
            }
          });
      final TreeSnapshot snapshot =
          new TreeSnapshot(
              trees.profile(tree).map(trees::total).orElse(whole.total()), groups, pods);
      reports.add(
          new TreeReport(
              new TreeResult(tree, trees.profile(tree), trees.inputs(tree), snapshot), own));
    }
    return reports;
  }
}
