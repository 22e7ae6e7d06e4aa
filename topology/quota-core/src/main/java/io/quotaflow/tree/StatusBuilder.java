package io.quotaflow.tree;

import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
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

  /** Anything else: spec, structure, validity, reported dimensions. */
  static final int ALL = 128;

  private final GroupTable t;
  private final boolean guaranteeUsage;

  StatusBuilder(GroupTable t, boolean guaranteeUsage) {
    this.t = t;
    this.guaranteeUsage = guaranteeUsage;
  }

  /**
   * The dimension ids a group's status lists, by name: what a normal group tracks; for the root,
   * {@code rootDims}; for a special group, {@code rootDims} and its own spec's dimensions.
   */
  int[] reportedDimensions(int g, boolean[] rootDims) {
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
        (fields & GUARANTEED) != 0 ? guaranteed(g, dims) : previous.guaranteed());
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
        guaranteed(g, dims));
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
