package io.quotaflow.profile;

import io.quotaflow.kube.QuotaLabels;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.SpecProblem;
import io.quotaflow.quota.SpecialGroups;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which tree a group other than a root is in, and what is wrong with its placement
 * (docs/semantics.md section 15): its {@code tree-id} label's tree, else its parent's; a label
 * naming no profile, or a tree other than its parent's, becomes a problem on the group. Reads the
 * live maps of {@link QuotaTrees}, which routes; a memo per pass spares walking shared ancestors
 * again.
 */
final class GroupPlacement {

  /** A group as its tree is given it: the tree, and the spec with its placement's problem. */
  record Placed(String tree, QuotaGroup spec) {}

  private final Map<String, QuotaGroup> groups;
  private final Map<String, QuotaProfile> trees;
  private final Map<String, String> rootTree;

  /**
   * @param groups the cluster's groups by name
   * @param trees the accepted profiles by tree id
   * @param rootTree the tree each root group heads
   */
  GroupPlacement(
      Map<String, QuotaGroup> groups,
      Map<String, QuotaProfile> trees,
      Map<String, String> rootTree) {
    this.groups = groups;
    this.trees = trees;
    this.rootTree = rootTree;
  }

  /** A group other than a root: its tree, and its spec with the problems of its placement. */
  Placed placed(QuotaGroup group, Map<String, String> memo) {
    final String tree =
        trees.isEmpty() ? QuotaTrees.DEFAULT_TREE : treeOf(group.name(), memo, new HashSet<>());
    final Optional<String> problem = placementProblem(group, tree, memo);
    if (problem.isEmpty()) {
      return new Placed(tree, group);
    }
    return new Placed(
        tree,
        group.toBuilder()
            .problem(new SpecProblem("metadata.labels[" + QuotaLabels.TREE_ID + "]", problem.get()))
            .build());
  }

  private Optional<String> placementProblem(
      QuotaGroup group, String tree, Map<String, String> memo) {
    if (group.treeId().isEmpty() || SpecialGroups.isSpecial(group.name())) {
      return Optional.empty();
    }
    if (!QuotaTrees.DEFAULT_TREE.equals(group.treeId()) && !trees.containsKey(group.treeId())) {
      return Optional.of(
          group.treeId()
              + " names no ElasticQuotaProfile"
              + (trees.isEmpty() ? "" : " (trees: " + String.join(", ", trees.keySet()) + ")"));
    }
    if (trees.isEmpty()) {
      return Optional.empty(); // every group is in the default tree, as its parent is
    }
    final String parentTree = treeOf(group.parent(), memo, new HashSet<>());
    if (!parentTree.equals(tree)) {
      return Optional.of(
          "tree "
              + tree
              + ", but its parent "
              + group.parent()
              + " is in tree "
              + parentTree
              + (QuotaTrees.DEFAULT_TREE.equals(tree)
                  ? ""
                  : " (a group of tree " + tree + " descends from " + rootName(tree) + ")"));
    }
    return Optional.empty();
  }

  private String rootName(String tree) {
    return trees.get(tree).quotaName();
  }

  /** The tree of the group {@code name}: its root's, its label's, else its parent's. */
  private String treeOf(String name, Map<String, String> memo, Set<String> seen) {
    final String known = memo.get(name);
    if (known != null) {
      return known;
    }
    final String tree;
    final String root = rootTree.get(name);
    final QuotaGroup group = groups.get(name);
    if (root != null) {
      tree = root;
    } else if (group == null || SpecialGroups.isSpecial(name) || !seen.add(name)) {
      tree = QuotaTrees.DEFAULT_TREE;
    } else if (!group.treeId().isEmpty()) {
      tree = trees.containsKey(group.treeId()) ? group.treeId() : QuotaTrees.DEFAULT_TREE;
    } else {
      tree = treeOf(group.parent(), memo, seen);
    }
    memo.put(name, tree);
    return tree;
  }
}
