package io.quotaflow.profile;

import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaCalculator;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.TreeSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Every quota tree of one cluster in one call: the inputs routed by {@link QuotaTrees}, each tree
 * computed by {@link QuotaCalculator} on its own inputs. Without profiles the one result is exactly
 * {@link QuotaCalculator#compute} on the cluster's inputs.
 */
public final class MultiTreeCalculator {

  private MultiTreeCalculator() {}

  /**
   * One tree's result.
   *
   * @param tree the tree's id ({@link QuotaTrees#DEFAULT_TREE} for the classic tree)
   * @param profile the profile that makes the tree; empty for the default tree
   * @param inputs what the tree was computed from (its root with the profile's spec)
   * @param snapshot the result; {@code total} is the tree's total (times the ratio) and only the
   *     groups the tree reports are listed
   */
  public record TreeResult(
      String tree, Optional<QuotaProfile> profile, ClusterInputs inputs, TreeSnapshot snapshot) {}

  /** The default tree first, then the profiles' trees by id. */
  public static List<TreeResult> compute(
      ClusterInputs inputs, List<QuotaProfile> profiles, QuotaOptions options) {
    final QuotaTrees trees = QuotaTrees.of(inputs, profiles, options);
    final List<TreeResult> results = new ArrayList<>();
    for (final String tree : trees.trees()) {
      final ClusterInputs treeInputs = trees.inputs(tree);
      final TreeSnapshot computed = QuotaCalculator.compute(treeInputs, options);
      final Optional<QuotaProfile> profile = trees.profile(tree);
      if (profile.isEmpty()) {
        // The default tree reports every group and its own total: the result as computed, whose
        // statuses are built when read (a cold start then costs the computation alone).
        results.add(new TreeResult(tree, profile, treeInputs, computed));
        continue;
      }
      final List<GroupStatus> groups =
          computed.groups().stream()
              .filter(status -> QuotaTrees.reports(tree, status.name()))
              .toList();
      results.add(
          new TreeResult(
              tree,
              profile,
              treeInputs,
              new TreeSnapshot(trees.total(profile.get()), groups, computed.pods())));
    }
    return results;
  }
}
