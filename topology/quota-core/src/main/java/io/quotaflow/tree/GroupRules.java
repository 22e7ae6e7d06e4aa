package io.quotaflow.tree;

import io.quotaflow.quota.Quantities;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.QuotaOptions.DefaultWeightPolicy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one group's own spec means for the computation, independent of the tree: which dimensions it
 * tracks, its effective weight, max and request floor, and whether the spec alone makes it invalid
 * (SPEC 3, 9, 12).
 */
public final class GroupRules {

  /** The annotation a source problem must name to be the tolerated shared-weight case. */
  static final String SHARED_WEIGHT = "shared-weight";

  private GroupRules() {}

  /** The dimensions a group tracks: those in its min or its max. */
  public static Set<String> trackedDimensions(QuotaGroup group) {
    final TreeSet<String> names = new TreeSet<>(group.min().names());
    names.addAll(group.max().names());
    return names;
  }

  /**
   * The annotation whose problems only the quota webhook acts on (docs/semantics.md section 16).
   */
  static final String MAX_STRICT_CHECK = "max-strict-check-resource-keys";

  /** True when a source problem concerns the shared-weight annotation (tolerated, SPEC 9). */
  static boolean isWeightProblem(SpecProblem problem) {
    return problem.field().contains(SHARED_WEIGHT);
  }

  /**
   * True when a source problem concerns the strict max keys (tolerated: the tree never reads them).
   */
  static boolean isStrictKeysProblem(SpecProblem problem) {
    return problem.field().contains(MAX_STRICT_CHECK);
  }

  /**
   * Why the spec alone makes the group invalid, or empty: an unreadable field (other than the
   * shared weight), a negative amount, or min above max.
   */
  public static Optional<String> localProblem(QuotaGroup group) {
    if (clean(group)) {
      return Optional.empty();
    }
    final List<String> problems = new ArrayList<>();
    for (final SpecProblem problem : group.problems()) {
      if (!isWeightProblem(problem) && !isStrictKeysProblem(problem)) {
        problems.add(problem.toString());
      }
    }
    negatives("spec.min", group.min(), problems);
    negatives("spec.max", group.max(), problems);
    group.sharedWeight().ifPresent(w -> negatives("shared-weight", w, problems));
    group.lendingLimit().ifPresent(l -> negatives("lending-limit", l, problems));
    group.borrowingLimit().ifPresent(b -> negatives("borrowing-limit", b, problems));
    for (final Map.Entry<String, Long> entry : group.min().asMap().entrySet()) {
      final String dimension = entry.getKey();
      if (group.max().contains(dimension) && entry.getValue() > group.max().get(dimension)) {
        problems.add(
            "spec.min["
                + dimension
                + "] = "
                + entry.getValue()
                + " is above spec.max["
                + dimension
                + "] = "
                + group.max().get(dimension));
      }
    }
    return problems.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", problems));
  }

  /**
   * Whether {@link #localProblem} finds nothing, checked without building anything: no source
   * problem, no negative amount, no min above max. Most groups are so.
   */
  private static boolean clean(QuotaGroup group) {
    if (!group.problems().isEmpty()
        || hasNegative(group.min())
        || hasNegative(group.max())
        || group.sharedWeight().map(GroupRules::hasNegative).orElse(false)
        || group.lendingLimit().map(GroupRules::hasNegative).orElse(false)
        || group.borrowingLimit().map(GroupRules::hasNegative).orElse(false)) {
      return false;
    }
    final ResourceList min = group.min();
    final ResourceList max = group.max();
    for (int i = 0; i < min.size(); i++) {
      final String dimension = min.nameAt(i);
      if (max.contains(dimension) && min.amountAt(i) > max.get(dimension)) {
        return false;
      }
    }
    return true;
  }

  private static boolean hasNegative(ResourceList list) {
    for (int i = 0; i < list.size(); i++) {
      if (list.amountAt(i) < 0) {
        return true;
      }
    }
    return false;
  }

  private static void negatives(String field, ResourceList list, List<String> problems) {
    list.asMap()
        .forEach(
            (dimension, amount) -> {
              if (amount < 0) {
                problems.add(
                    field
                        + "["
                        + dimension
                        + "] = "
                        + Quantities.format(dimension, amount)
                        + " is negative");
              }
            });
  }

  /**
   * The warning for a valid group whose shared weight or strict max keys could not be read, or
   * empty.
   */
  public static Optional<String> warning(QuotaGroup group) {
    final List<String> warnings = new ArrayList<>();
    for (final SpecProblem problem : group.problems()) {
      if (isWeightProblem(problem)) {
        warnings.add(problem + "; the default weight is used");
      } else if (isStrictKeysProblem(problem)) {
        warnings.add(problem + "; no max is checked against used");
      }
    }
    return warnings.isEmpty()
        ? Optional.empty()
        : Optional.of("warning: " + String.join("; ", warnings));
  }

  /**
   * The effective weight in one dimension: the explicit shared weight when it names the dimension
   * (and is readable and not all zero), else the policy default: max (or min when max does not
   * bound the dimension) for {@link DefaultWeightPolicy#MAX}, min for {@link
   * DefaultWeightPolicy#MIN}.
   */
  public static long weight(QuotaGroup group, String dimension, DefaultWeightPolicy policy) {
    final Optional<ResourceList> explicit = explicitWeight(group);
    if (explicit.isPresent() && explicit.get().contains(dimension)) {
      return explicit.get().get(dimension);
    }
    if (policy == DefaultWeightPolicy.MAX && group.max().contains(dimension)) {
      return group.max().get(dimension);
    }
    return group.min().get(dimension);
  }

  private static Optional<ResourceList> explicitWeight(QuotaGroup group) {
    if (group.sharedWeight().isEmpty()) {
      return Optional.empty();
    }
    final ResourceList weight = group.sharedWeight().get();
    for (int i = 0; i < weight.size(); i++) {
      if (weight.amountAt(i) != 0) {
        return Optional.of(weight);
      }
    }
    return Optional.empty();
  }

  /**
   * The max a group is bounded by in one dimension: {@code min(max, min + borrowing limit)}, or
   * {@link Long#MAX_VALUE} when nothing bounds it.
   */
  public static long effectiveMax(QuotaGroup group, String dimension) {
    long bound = group.max().contains(dimension) ? group.max().get(dimension) : Arith.UNBOUNDED;
    if (group.borrowingLimit().isPresent() && group.borrowingLimit().get().contains(dimension)) {
      bound =
          Math.min(
              bound,
              Arith.add(group.min().get(dimension), group.borrowingLimit().get().get(dimension)));
    }
    return bound;
  }

  /**
   * The part of min a group never lends: all of it with {@code allow-lent-resource: "false"},
   * {@code min - lending limit} with a lending limit, else nothing.
   */
  public static long requestFloor(QuotaGroup group, String dimension) {
    return requestFloor(group, dimension, false);
  }

  /**
   * {@link #requestFloor(QuotaGroup, String)}; with {@code guaranteeUsage} no group lends, as
   * Koordinator turns allow-lent-resource off for every group under ElasticQuotaGuaranteeUsage.
   */
  public static long requestFloor(QuotaGroup group, String dimension, boolean guaranteeUsage) {
    final long min = group.min().get(dimension);
    if (!group.allowLent() || guaranteeUsage) {
      return min;
    }
    if (group.lendingLimit().isPresent() && group.lendingLimit().get().contains(dimension)) {
      return Math.max(0L, min - Math.max(0L, group.lendingLimit().get().get(dimension)));
    }
    return 0L;
  }

  /** Writes one group's spec-derived columns into the table. */
  static void apply(GroupTable table, int slot, QuotaGroup group, QuotaOptions options) {
    final QuotaGroup old = table.spec[slot];
    if (old != null) {
      for (final String dimension : trackedDimensions(old)) {
        table.trackCount[table.dims.id(dimension)]--;
      }
    }
    final int[] tracked = internTracked(table.dims, group);
    table.syncDimensions();
    for (final int d : tracked) {
      table.trackCount[d]++;
    }
    table.spec[slot] = group;
    final int count = table.dims.count();
    if (!table.isNormal(slot)) {
      for (int d = 0; d < count; d++) {
        final String dimension = table.dims.name(d);
        table.tracked[d][slot] = true;
        table.min[d][slot] = Math.max(0L, group.min().get(dimension));
        table.floor[d][slot] = 0;
        table.weight[d][slot] = 0;
        table.effMax[d][slot] =
            slot == GroupTable.DEFAULT && group.max().contains(dimension)
                ? Math.max(0L, group.max().get(dimension))
                : Arith.UNBOUNDED;
      }
      return;
    }
    final ResourceList explicit = explicitWeight(group).orElse(null);
    final boolean byMax = options.defaultWeight() == DefaultWeightPolicy.MAX;
    for (int d = 0; d < count; d++) {
      final boolean tracks = contains(tracked, d);
      table.tracked[d][slot] = tracks;
      if (!tracks) {
        table.min[d][slot] = 0;
        table.effMax[d][slot] = 0;
        table.floor[d][slot] = 0;
        table.weight[d][slot] = 0;
        continue;
      }
      final String dimension = table.dims.name(d);
      // Negative amounts make the group invalid; clamping keeps the arithmetic well defined.
      table.min[d][slot] = Math.max(0L, group.min().get(dimension));
      table.effMax[d][slot] = Math.max(0L, effectiveMax(group, dimension));
      table.floor[d][slot] = Math.max(0L, requestFloor(group, dimension, options.guaranteeUsage()));
      // As weight(group, dimension, policy), with the explicit weight looked up once.
      final long weight =
          explicit != null && explicit.contains(dimension)
              ? explicit.get(dimension)
              : byMax && group.max().contains(dimension)
                  ? group.max().get(dimension)
                  : group.min().get(dimension);
      table.weight[d][slot] = Math.max(0L, weight);
    }
  }

  /**
   * Interns the dimensions the group tracks (those of its min and its max, in name order, as {@link
   * #trackedDimensions}) and returns their ids in that order, without building a set.
   */
  private static int[] internTracked(Dimensions dims, QuotaGroup group) {
    final ResourceList min = group.min();
    final ResourceList max = group.max();
    final int[] ids = new int[min.size() + max.size()];
    int n = 0;
    int i = 0;
    int j = 0;
    while (i < min.size() || j < max.size()) {
      final String name;
      if (j == max.size()) {
        name = min.nameAt(i++);
      } else if (i == min.size()) {
        name = max.nameAt(j++);
      } else {
        final int order = min.nameAt(i).compareTo(max.nameAt(j));
        name = order <= 0 ? min.nameAt(i) : max.nameAt(j);
        if (order <= 0) {
          i++;
        }
        if (order >= 0) {
          j++;
        }
      }
      ids[n++] = dims.intern(name);
    }
    return n == ids.length ? ids : Arrays.copyOf(ids, n);
  }

  private static boolean contains(int[] ids, int id) {
    for (final int candidate : ids) {
      if (candidate == id) {
        return true;
      }
    }
    return false;
  }

  /** The spec a special group has while no ElasticQuota object defines it. */
  static QuotaGroup implicitSpec(String name, QuotaOptions options) {
    final QuotaGroup.Builder builder = QuotaGroup.builder(name);
    if (SpecialGroups.DEFAULT.equals(name)) {
      builder.max(options.defaultGroupMax());
    }
    return builder.build();
  }
}
