package io.quotaflow.profile;

import io.quotaflow.dra.DeviceSupply;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.PodAccounting;
import io.quotaflow.tree.QuotaOptions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The root group each accepted profile heads, and the node pool its min and max come from
 * (docs/semantics.md section 15): which nodes a profile's pool holds, which of them count toward
 * its total, and the running totals that spare summing every node on each node change. Part of
 * {@link QuotaTrees}, which routes; this class only sizes the roots.
 */
final class TreeRoots {

  private static final String PROFILE_FIELD = "ElasticQuotaProfile";

  private final QuotaOptions options;
  // Each profile tree's node pool, summed as nodes change.
  private final Map<String, PoolTotals> pools = new HashMap<>();

  TreeRoots(QuotaOptions options) {
    this.options = options;
  }

  /** Empties the pools and sums {@code nodes} into the pools of the accepted {@code trees}. */
  void reset(Map<String, QuotaProfile> trees, Collection<QuotaNode> nodes) {
    pools.clear();
    trees.keySet().forEach(tree -> pools.put(tree, new PoolTotals()));
    nodes.forEach(node -> pool(trees, node, 1));
  }

  /** Adds a node to ({@code sign} 1) or takes it from (-1) the pools whose selector matches it. */
  void pool(Map<String, QuotaProfile> trees, QuotaNode node, int sign) {
    if (node == null || trees.isEmpty()) {
      return;
    }
    final boolean counted = counts(node);
    final ResourceList allocatable =
        counted ? PodAccounting.derive(node.allocatable(), options.derivedResources()) : null;
    trees.forEach(
        (tree, profile) -> {
          if (selects(profile, node)) {
            final PoolTotals pool = pools.get(tree);
            pool.match(sign);
            if (counted) {
              pool.count(allocatable, sign);
            }
          }
        });
  }

  /**
   * Whether the profile's pool holds the node. The node carrying the devices of slices bound to no
   * single node is in no pool: it counts in the default tree only (semantics.md section 22.8).
   */
  static boolean selects(QuotaProfile profile, QuotaNode node) {
    return !DeviceSupply.isUnboundNode(node.name())
        && profile.nodeSelector().matches(node.labels());
  }

  /** Whether a node counts toward a profile's total: Ready, not being deleted (SPEC 3 beyond). */
  boolean counts(QuotaNode node) {
    return node.ready()
        && !node.deleting()
        && (!options.onlyReadySchedulableNodes() || node.schedulable());
  }

  /**
   * A profile's root group: Koordinator's profile controller's spec, a parent that does not lend
   * with the tree's total as min and max, and the profile's problems as its own. {@code nodes} are
   * summed only when the running totals overflowed.
   */
  QuotaGroup root(String tree, QuotaProfile profile, Collection<QuotaNode> nodes) {
    final List<SpecProblem> problems = new ArrayList<>();
    profile
        .problems()
        .forEach(
            problem ->
                problems.add(
                    new SpecProblem(
                        PROFILE_FIELD + " " + profile.name() + " " + problem.field(),
                        problem.reason())));
    if (!profile.ratio().inRange()) {
      problems.add(
          new SpecProblem(
              PROFILE_FIELD + " " + profile.name() + " spec.resourceRatio",
              profile.ratio() + " is outside (0, 1]"));
    }
    if (!pools.get(tree).matchesAnyNode()) {
      problems.add(
          new SpecProblem(
              PROFILE_FIELD + " " + profile.name() + " spec.nodeSelector", "matches no node"));
    }
    final ResourceList total =
        pools
            .get(tree)
            .sums()
            .map(sums -> scaled(sums, profile))
            .orElseGet(() -> total(profile, nodes));
    return QuotaGroup.builder(profile.quotaName())
        .parent(SpecialGroups.ROOT)
        .parentGroup(true)
        .allowLent(false)
        .min(total)
        .max(total)
        .treeId(tree)
        .problems(problems)
        .build();
  }

  /** The tree's total: the counted selected nodes' allocatable, times the ratio, rounded down. */
  ResourceList total(QuotaProfile profile, Collection<QuotaNode> nodes) {
    final Map<String, Long> sum = new TreeMap<>();
    for (final QuotaNode node : nodes) {
      if (counts(node) && selects(profile, node)) {
        PodAccounting.derive(node.allocatable(), options.derivedResources())
            .asMap()
            .forEach((dimension, amount) -> sum.merge(dimension, amount, TreeRoots::saturated));
      }
    }
    return scaled(sum, profile);
  }

  /** Summed allocatable times the profile's ratio, rounded down per dimension. */
  private static ResourceList scaled(Map<String, Long> sum, QuotaProfile profile) {
    final ResourceRatio ratio = profile.ratio().inRange() ? profile.ratio() : ResourceRatio.ONE;
    final Map<String, Long> scaled = new TreeMap<>();
    sum.forEach((dimension, amount) -> scaled.put(dimension, ratio.apply(amount)));
    return ResourceList.of(scaled);
  }

  private static long saturated(long a, long b) {
    final long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }
}
