package io.quotaflow.tree;

import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns one slot of the {@link GroupTable} into the {@link GroupStatus} handed out: the boundary
 * between the primitive columns and the immutable records. Lists name dimensions in sorted order.
 */
final class StatusBuilder {

  // Which parts of a status changed since it was last built; the others are shared with it.
  static final int REQUEST = 1;
  static final int LIMITED = 2;
  static final int USED = 4;
  static final int NP_REQUEST = 8;
  static final int NP_USED = 16;
  static final int SCALED = 32;
  static final int RUNTIME = 64;
  static final int GUARANTEED = 256;
  static final int PAST = 512;

  /** Anything else: spec, structure, validity, reported dimensions. */
  static final int ALL = 128;

  // The reported dimensions of normal groups by the set they track (bit d: dimension d), for up to
  // this many dimensions; rebuilt when a dimension is added.
  private static final int MEMO_DIMENSIONS = 10;

  private final GroupTable t;
  private final boolean guaranteeUsage;
  private final PastUsage pastUsage;
  private int[][] memo = new int[0][];

  StatusBuilder(GroupTable t, boolean guaranteeUsage, PastUsage pastUsage) {
    this.t = t;
    this.guaranteeUsage = guaranteeUsage;
    this.pastUsage = pastUsage;
  }

  /**
   * The dimension ids a group's status lists, by name: what a normal group tracks; for the root,
   * {@code rootDims}; for a special group, {@code rootDims} and its own spec's dimensions.
   */
  int[] reportedDimensions(int g, boolean[] rootDims) {
    final int count = t.dims.count();
    if (t.isNormal(g) && count <= MEMO_DIMENSIONS) {
      // A normal group reports what it tracks: one of few combinations, each built once.
      if (memo.length != 1 << count) {
        memo = new int[1 << count][];
      }
      int mask = 0;
      for (int d = 0; d < count; d++) {
        if (t.tracked[d][g]) {
          mask |= 1 << d;
        }
      }
      int[] dims = memo[mask];
      if (dims == null) {
        dims = computeReported(g, rootDims);
        memo[mask] = dims;
      }
      return dims;
    }
    return computeReported(g, rootDims);
  }

  private int[] computeReported(int g, boolean[] rootDims) {
    final int[] sorted = t.dims.sortedIds();
    final IntList result = new IntList();
    final boolean normal = t.isNormal(g);
    final QuotaGroup spec = t.spec[g];
    for (final int d : sorted) {
      final boolean reported;
      if (normal) {
        reported = t.tracked[d][g];
      } else if (g == GroupTable.ROOT) {
        reported = rootDims[d];
      } else {
        final String dimension = t.dims.name(d);
        reported = rootDims[d] || spec.min().contains(dimension) || spec.max().contains(dimension);
      }
      if (reported) {
        result.add(d);
      }
    }
    return result.toArray();
  }

  /**
   * The status of slot {@code g}, rebuilding only the lists flagged in {@code fields} when an
   * earlier status exists (the rest is shared with it).
   *
   * @param dims the dimensions the status lists (see {@link #reportedDimensions})
   * @param participates whether the group takes part in its parent's split (has a scaled min)
   */
  GroupStatus build(int g, int fields, int[] dims, boolean participates) {
    final GroupStatus previous = t.status[g];
    if (previous == null || (fields & ALL) != 0) {
      return buildAll(g, dims, participates);
    }
    final boolean scaled = participates;
    return new GroupStatus(
        previous.name(),
        previous.parent(),
        previous.parentGroup(),
        previous.valid(),
        previous.reason(),
        previous.min(),
        (fields & SCALED) != 0 && scaled ? list(t.scaledMin, g, dims) : previous.scaledMin(),
        previous.max(),
        previous.sharedWeight(),
        (fields & REQUEST) != 0 ? list(t.request, g, dims) : previous.request(),
        (fields & LIMITED) != 0 ? list(t.limited, g, dims) : previous.limitedRequest(),
        (fields & USED) != 0 ? list(t.used, g, dims) : previous.used(),
        (fields & NP_REQUEST) != 0 ? list(t.npRequest, g, dims) : previous.nonPreemptibleRequest(),
        (fields & NP_USED) != 0 ? list(t.npUsed, g, dims) : previous.nonPreemptibleUsed(),
        (fields & RUNTIME) != 0 && t.valid[g] ? list(t.runtime, g, dims) : previous.runtime(),
        (fields & GUARANTEED) != 0 ? guaranteed(g, dims) : previous.guaranteed(),
        (fields & PAST) != 0 ? pastBorrowed(g) : previous.pastBorrowed());
  }

  /** The past usage a status lists (section 24): only normal groups take part in a split. */
  private ResourceList pastBorrowed(int g) {
    return t.isNormal(g) ? pastUsage.of(t.name[g]) : ResourceList.empty();
  }

  /** The guaranteed amount a status lists: only normal groups have one, only with the switch on. */
  private ResourceList guaranteed(int g, int[] dims) {
    return guaranteeUsage && t.isNormal(g) ? list(t.guaranteed, g, dims) : ResourceList.empty();
  }

  private GroupStatus buildAll(int g, int[] dims, boolean participates) {
    final boolean root = g == GroupTable.ROOT;
    final boolean normal = t.isNormal(g);
    final QuotaGroup spec = t.spec[g];
    final String parentName = root ? "" : normal ? parentName(spec) : SpecialGroups.ROOT;
    final Optional<String> reason =
        t.valid[g] ? Optional.ofNullable(t.warning[g]) : Optional.ofNullable(t.reason[g]);
    final ResourceList min = root ? ResourceList.empty() : spec.min();
    final ResourceList max = root ? ResourceList.empty() : spec.max();
    final ResourceList scaledMin;
    final ResourceList weight;
    if (normal) {
      scaledMin = participates ? list(t.scaledMin, g, dims) : list(t.min, g, dims);
      weight = list(t.weight, g, dims);
    } else {
      scaledMin = root ? ResourceList.empty() : list(t.min, g, dims);
      weight = ResourceList.empty();
    }
    final ResourceList runtime = t.valid[g] ? list(t.runtime, g, dims) : t.frozen[g];
    return new GroupStatus(
        t.name[g],
        parentName,
        t.isParent[g],
        t.valid[g],
        reason,
        min,
        scaledMin,
        max,
        weight,
        list(t.request, g, dims),
        list(t.limited, g, dims),
        list(t.used, g, dims),
        list(t.npRequest, g, dims),
        list(t.npUsed, g, dims),
        runtime,
        guaranteed(g, dims),
        pastBorrowed(g));
  }

  /**
   * Whether the status {@link #build} would give slot {@code g} with every field rebuilt equals
   * {@code previous}: compared against the columns in place, without building a record.
   */
  boolean matches(int g, int[] dims, boolean participates, GroupStatus previous) {
    final boolean root = g == GroupTable.ROOT;
    final boolean normal = t.isNormal(g);
    final QuotaGroup spec = t.spec[g];
    final String parentName = root ? "" : normal ? parentName(spec) : SpecialGroups.ROOT;
    final String reason = t.valid[g] ? t.warning[g] : t.reason[g];
    if (!previous.name().equals(t.name[g])
        || !previous.parent().equals(parentName)
        || previous.parentGroup() != t.isParent[g]
        || previous.valid() != t.valid[g]
        || !Objects.equals(previous.reason().orElse(null), reason)) {
      return false;
    }
    if (!previous.min().equals(root ? ResourceList.empty() : spec.min())
        || !previous.max().equals(root ? ResourceList.empty() : spec.max())) {
      return false;
    }
    if (normal) {
      if (!same(participates ? t.scaledMin : t.min, g, dims, previous.scaledMin())
          || !same(t.weight, g, dims, previous.sharedWeight())) {
        return false;
      }
    } else if ((root
            ? !previous.scaledMin().isEmpty()
            : !same(t.min, g, dims, previous.scaledMin()))
        || !previous.sharedWeight().isEmpty()) {
      return false;
    }
    if (t.valid[g]
        ? !same(t.runtime, g, dims, previous.runtime())
        : !previous.runtime().equals(t.frozen[g])) {
      return false;
    }
    if (!previous.pastBorrowed().equals(pastBorrowed(g))) {
      return false;
    }
    return same(t.request, g, dims, previous.request())
        && same(t.limited, g, dims, previous.limitedRequest())
        && same(t.used, g, dims, previous.used())
        && same(t.npRequest, g, dims, previous.nonPreemptibleRequest())
        && same(t.npUsed, g, dims, previous.nonPreemptibleUsed())
        && (guaranteeUsage && t.isNormal(g)
            ? same(t.guaranteed, g, dims, previous.guaranteed())
            : previous.guaranteed().isEmpty());
  }

  /** Whether {@code list} is what {@link #list} would build of these columns. */
  private boolean same(long[][] columns, int g, int[] dims, ResourceList list) {
    if (list.size() != dims.length) {
      return false;
    }
    for (int k = 0; k < dims.length; k++) {
      final int d = dims[k];
      if (list.amountAt(k) != columns[d][g] || !list.nameAt(k).equals(t.dims.name(d))) {
        return false;
      }
    }
    return true;
  }

  private static String parentName(QuotaGroup spec) {
    return spec.parent().isEmpty() ? SpecialGroups.ROOT : spec.parent();
  }

  private ResourceList list(long[][] columns, int g, int[] dims) {
    if (dims.length == 0) {
      return ResourceList.empty();
    }
    final ResourceList.Builder builder = ResourceList.builder();
    for (final int d : dims) {
      builder.put(t.dims.name(d), columns[d][g]);
    }
    return builder.build();
  }
}
