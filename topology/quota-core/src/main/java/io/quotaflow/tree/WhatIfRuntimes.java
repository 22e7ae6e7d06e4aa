package io.quotaflow.tree;

import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The runtimes a group and its ancestors would have if its pods requested {@code extra} more: what
 * a full recomputation gives after a pending pod with that request is added to the group, computed
 * along the ancestor path only (admission, SPEC 10).
 *
 * <p>Only the group's own request changes, so only the limited requests on its ancestor path change
 * (bottom up, SPEC 6: each is {@code min(max(Σ children's limited requests, floor), effective
 * max)}), and only the distributions of the path's parents, the root's included, need to run again
 * (top down, SPEC 7), each over that parent's children with the one child's limited request raised
 * and every other child's inputs (limited request, min, weight) as they are. A level whose inputs
 * did not change keeps its runtime. Each level runs the same {@link WaterFill} as the full
 * computation, so the result is exact; the cost is O(depth × siblings) per tracked dimension.
 *
 * <p>When the inputs do not know a leaf's own request and its request sits at its floor, the pods'
 * used amount stands in for it (a lower bound: used pods are among the requesting ones), which can
 * only make the result smaller. The system and default groups, invalid groups, parent groups
 * (unless they own pods, docs/semantics.md section 18) and groups without a complete status chain
 * get their current runtimes: a pending pod changes nothing there.
 *
 * <p>In a cluster with several quota trees (docs/semantics.md section 15) the path of a group in a
 * profile's tree ends below the tree's root, whose runtime (the tree's total) is what the top level
 * distributes among the root's children: a pod borrows within its tree only. The root itself keeps
 * its runtime.
 *
 * <p>With the guarantee of allocated usage on (section 17) every floor is the min and each level
 * runs the distribution with the children's guaranteed amounts, which a pending pod does not
 * change.
 */
public final class WhatIfRuntimes {

  private WhatIfRuntimes() {}

  /**
   * The runtimes of {@code group} and each ancestor below the root, in that order, were {@code
   * extra} added to {@code group}'s own request.
   *
   * @param minScaling whether min scaling is on (SPEC 7.5), as in the computation that produced the
   *     inputs
   */
  public static Map<String, ResourceList> compute(
      WhatIfInputs inputs, String group, ResourceList extra, boolean minScaling) {
    return compute(inputs, group, extra, QuotaOptions.DEFAULTS.withMinScaling(minScaling));
  }

  /**
   * {@link #compute(WhatIfInputs, String, ResourceList, boolean)} under every switch of {@code
   * options} the computation that produced the inputs ran with: min scaling, the guarantee of
   * allocated usage and parent groups owning pods.
   */
  public static Map<String, ResourceList> compute(
      WhatIfInputs inputs, String group, ResourceList extra, QuotaOptions options) {
    final List<GroupStatus> chain = chain(inputs, group);
    final Map<String, ResourceList> current = new LinkedHashMap<>();
    chain.forEach(status -> current.put(status.name(), status.runtime()));
    // A profile tree's root (section 15) is the top of the what-if: its runtime is the tree's
    // total.
    final Optional<GroupStatus> treeRoot =
        chain.size() > 1 && inputs.headsTree(chain.get(chain.size() - 1).name())
            ? Optional.of(chain.remove(chain.size() - 1))
            : Optional.empty();
    if (chain.isEmpty()
        || !reachesRoot(chain, treeRoot)
        || SpecialGroups.isSpecial(group)
        || inputs.headsTree(group)
        || !chain.get(0).valid()
        || (chain.get(0).parentGroup() && !options.parentPods())
        || extra.isEmpty()) {
      return Collections.unmodifiableMap(current);
    }
    final Optional<GroupStatus> root =
        treeRoot.isPresent() ? treeRoot : inputs.status(SpecialGroups.ROOT);
    final List<QuotaGroup> specs = new ArrayList<>();
    for (final GroupStatus status : chain) {
      final Optional<QuotaGroup> spec = inputs.spec(status.name());
      if (spec.isEmpty() || !status.valid()) {
        return Collections.unmodifiableMap(current);
      }
      specs.add(spec.get());
    }
    if (root.isEmpty()) {
      return Collections.unmodifiableMap(current);
    }
    return new Path(inputs, chain, specs, root.get(), options).compute(extra);
  }

  /** The group, then each ancestor below the root, as far as statuses are known. */
  static List<GroupStatus> chain(WhatIfInputs inputs, String group) {
    final List<GroupStatus> chain = new ArrayList<>();
    final Set<String> seen = new HashSet<>();
    String name = group;
    while (!SpecialGroups.ROOT.equals(name) && !name.isEmpty() && seen.add(name)) {
      final Optional<GroupStatus> status = inputs.status(name);
      if (status.isEmpty()) {
        break;
      }
      chain.add(status.get());
      name = status.get().parent();
    }
    return chain;
  }

  private static boolean reachesRoot(List<GroupStatus> chain, Optional<GroupStatus> treeRoot) {
    final String top = treeRoot.map(GroupStatus::name).orElse(SpecialGroups.ROOT);
    return top.equals(chain.get(chain.size() - 1).parent());
  }

  /** One what-if along one ancestor path. */
  private static final class Path {
    private final WhatIfInputs inputs;
    private final List<GroupStatus> chain;
    private final List<QuotaGroup> specs;
    private final GroupStatus root;
    private final QuotaOptions options;
    private final boolean guaranteeUsage;

    /** siblings.get(i): the participants of the distribution that gives chain[i] its runtime. */
    private final List<List<GroupStatus>> siblings = new ArrayList<>();

    private final WaterFill fill = new WaterFill();

    Path(
        WhatIfInputs inputs,
        List<GroupStatus> chain,
        List<QuotaGroup> specs,
        GroupStatus root,
        QuotaOptions options) {
      this.inputs = inputs;
      this.chain = chain;
      this.specs = specs;
      this.root = root;
      this.options = options;
      this.guaranteeUsage = options.guaranteeUsage();
    }

    Map<String, ResourceList> compute(ResourceList extra) {
      for (int i = 0; i < chain.size(); i++) {
        final String parent = i + 1 < chain.size() ? chain.get(i + 1).name() : root.name();
        siblings.add(participants(parent));
      }
      final int levels = chain.size();
      final List<Map<String, Long>> runtimes = new ArrayList<>();
      for (final GroupStatus status : chain) {
        runtimes.add(new TreeMap<>(status.runtime().asMap()));
      }
      final GroupStatus leaf = chain.get(0);
      for (final String dimension : leaf.trackedDimensions()) {
        final long added = extra.get(dimension);
        if (added <= 0) {
          continue;
        }
        final long[] limited = limitedRequests(dimension, added);
        for (int i = levels - 1; i >= 0; i--) {
          final GroupStatus status = chain.get(i);
          if (!status.trackedDimensions().contains(dimension)) {
            continue;
          }
          final boolean parentIsRoot = i + 1 == levels;
          final GroupStatus parent = parentIsRoot ? root : chain.get(i + 1);
          final boolean parentTracks =
              (parentIsRoot && SpecialGroups.ROOT.equals(root.name()))
                  || parent.trackedDimensions().contains(dimension);
          final long available =
              parentIsRoot
                  ? root.runtime().get(dimension)
                  : runtimes.get(i + 1).getOrDefault(dimension, 0L);
          final boolean parentChanged =
              !parentIsRoot && parentTracks && available != parent.runtime().get(dimension);
          if (!parentChanged && limited[i] == status.limitedRequest().get(dimension)) {
            continue;
          }
          runtimes
              .get(i)
              .put(dimension, distribute(i, dimension, available, !parentTracks, limited[i]));
        }
      }
      final Map<String, ResourceList> result = new LinkedHashMap<>();
      for (int i = 0; i < levels; i++) {
        result.put(chain.get(i).name(), ResourceList.of(runtimes.get(i)));
      }
      return Collections.unmodifiableMap(result);
    }

    /**
     * Each path group's limited request in {@code dimension} with {@code added} more requested at
     * the leaf, bottom up; unchanged above a group that does not pass the change on.
     */
    private long[] limitedRequests(String dimension, long added) {
      final int levels = chain.size();
      final long[] limited = new long[levels];
      for (int i = 0; i < levels; i++) {
        limited[i] = chain.get(i).limitedRequest().get(dimension);
      }
      final GroupStatus leaf = chain.get(0);
      final long floor = floor(0, dimension);
      // A parent owning pods (section 18) asks for them and for its valid children.
      long children = 0;
      if (leaf.parentGroup()) {
        for (final GroupStatus child : participants(leaf.name())) {
          if (child.trackedDimensions().contains(dimension)) {
            children = Arith.add(children, child.limitedRequest().get(dimension));
          }
        }
      }
      final long known = children;
      final long own =
          inputs
              .ownRequest(leaf.name())
              .map(request -> request.get(dimension))
              .orElseGet(() -> ownLowerBound(leaf, dimension, floor, known));
      limited[0] = limit(0, dimension, Math.max(Arith.add(Arith.add(own, children), added), floor));
      for (int i = 1; i < levels; i++) {
        if (limited[i - 1] == chain.get(i - 1).limitedRequest().get(dimension)
            || !chain.get(i).trackedDimensions().contains(dimension)) {
          break;
        }
        long raw = 0;
        long before = 0;
        for (final GroupStatus child : siblings.get(i - 1)) {
          if (child.trackedDimensions().contains(dimension)) {
            final long current = child.limitedRequest().get(dimension);
            before = Arith.add(before, current);
            raw =
                Arith.add(
                    raw, child.name().equals(chain.get(i - 1).name()) ? limited[i - 1] : current);
          }
        }
        // A parent's own pods (section 18) count beside its children.
        final long floorAbove = floor(i, dimension);
        final GroupStatus above = chain.get(i);
        final long childrenBefore = before;
        final long aboveOwn =
            inputs
                .ownRequest(above.name())
                .map(request -> request.get(dimension))
                .orElseGet(() -> ownLowerBound(above, dimension, floorAbove, childrenBefore));
        limited[i] = limit(i, dimension, Math.max(Arith.add(raw, aboveOwn), floorAbove));
      }
      return limited;
    }

    /** {@code request} capped at the effective max of chain[i]. */
    private long limit(int i, String dimension, long request) {
      return Math.min(request, Math.max(0L, GroupRules.effectiveMax(specs.get(i), dimension)));
    }

    private long floor(int i, String dimension) {
      return Math.max(0L, GroupRules.requestFloor(specs.get(i), dimension, guaranteeUsage));
    }

    /**
     * A request above the floor is the pods' own and the children's; at the floor, used is a lower
     * bound of a leaf's own, and nothing is known of a parent's.
     */
    private static long ownLowerBound(
        GroupStatus group, String dimension, long floor, long children) {
      final long request = group.request().get(dimension);
      if (request > floor) {
        return Math.max(0L, request - children);
      }
      return group.parentGroup() ? 0L : Math.min(group.used().get(dimension), request);
    }

    /** Runs the distribution that gives chain[i] its runtime, with its limited request raised. */
    private long distribute(
        int i, String dimension, long available, boolean unbounded, long raisedLimited) {
      final StatusSplit split = StatusSplit.of(siblings.get(i), dimension);
      final int self = split.indexOf(chain.get(i).name());
      if (self < 0) {
        return chain.get(i).runtime().get(dimension);
      }
      split.remember(available, unbounded);
      split.request[self] = raisedLimited;
      return split.run(fill, available, unbounded, options, null)[1][self];
    }

    /** Who takes part in the split of {@code parent}. */
    private List<GroupStatus> participants(String parent) {
      return StatusSplit.participants(inputs, parent);
    }
  }
}
