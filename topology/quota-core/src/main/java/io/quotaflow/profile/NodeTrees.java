package io.quotaflow.profile;

import io.quotaflow.quota.QuotaNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The trees each node was last given, for {@link QuotaTrees}: every node counts toward the default
 * tree, and a counted node also toward each profile tree whose pool selects it.
 */
final class NodeTrees {

  private static final Set<String> ONLY_DEFAULT = Set.of(QuotaTrees.DEFAULT_TREE);

  private final Map<String, Set<String>> fed = new HashMap<>();

  /**
   * Sends the node {@code name} (null once removed) to the trees whose pool counts it, and takes it
   * from the others, with the changes into {@code ops}.
   */
  void route(
      String name,
      QuotaNode node,
      Map<String, QuotaProfile> trees,
      TreeRoots roots,
      List<TreeOp> ops) {
    final Set<String> now;
    if (node == null) {
      now = Set.of();
    } else if (trees.isEmpty()) {
      now = ONLY_DEFAULT; // a cluster without profile trees: no set per node
    } else {
      now = new TreeSet<>();
      now.add(QuotaTrees.DEFAULT_TREE);
      if (roots.counts(node)) {
        trees.forEach(
            (tree, profile) -> {
              if (TreeRoots.selects(profile, node)) {
                now.add(tree);
              }
            });
      }
    }
    final Set<String> before = fed.getOrDefault(name, Set.of());
    for (final String tree : before) {
      if (!now.contains(tree)) {
        ops.add(new TreeOp.RemoveNode(tree, name));
      }
    }
    for (final String tree : now) {
      ops.add(new TreeOp.PutNode(tree, node));
    }
    if (now.isEmpty()) {
      fed.remove(name);
    } else {
      fed.put(name, now);
    }
  }

  /** The nodes of {@code nodes} given {@code tree}, in no particular order. */
  List<QuotaNode> in(String tree, Map<String, QuotaNode> nodes) {
    final List<QuotaNode> result = new ArrayList<>();
    fed.forEach(
        (name, nodeTrees) -> {
          if (nodeTrees.contains(tree)) {
            result.add(nodes.get(name));
          }
        });
    return result;
  }
}
