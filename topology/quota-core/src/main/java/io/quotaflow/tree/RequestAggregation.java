package io.quotaflow.tree;

/**
 * Up the tree (SPEC 5, 6): each group's request, limited request, used and non-preemptible sums
 * from its pods' exact sums and its children's results. A group's request is its own request plus
 * its valid children's limited requests, raised to its floor (its min if it does not lend) and
 * limited by its max; used and the non-preemptible sums add up raw. Changes are stored in place in
 * the {@link GroupTable} and noted in the {@link ChangeMarks}.
 *
 * <p>With the guarantee of allocated usage on (docs/semantics.md section 17), a normal group's
 * guaranteed amount is {@code max(min, own used + Σ guaranteed of its children)}, its children
 * counted like used (invalid ones included); a change of it makes the parent split again.
 *
 * <p>Two walks: {@link #aggregateUp} redoes the marked groups deepest first, marking a parent only
 * while its child's results change; {@link #aggregateDimension} redoes every group in one
 * dimension, the leaves in slot runs.
 */
final class RequestAggregation {

  /** Leaves checked for a change at a time in a full pass (a block that changed is redone). */
  private static final int LEAF_BLOCK = 64;

  // What aggregate(g) reports changed.
  private static final int LIMITED_CHANGED = 1;
  private static final int SUMS_CHANGED = 2;
  private static final int GUARANTEE_CHANGED = 4;

  private final GroupTable t;
  private final TreeLayout layout;
  private final ChangeMarks marks;
  private final boolean guaranteeUsage;

  RequestAggregation(GroupTable t, TreeLayout layout, ChangeMarks marks, boolean guaranteeUsage) {
    this.t = t;
    this.layout = layout;
    this.marks = marks;
    this.guaranteeUsage = guaranteeUsage;
  }

  /** Redoes the marked groups, children before parents, and marks the splits they change. */
  void aggregateUp() {
    final IntList unattachedAgg = marks.unattachedAgg;
    for (int i = 0; i < unattachedAgg.size(); i++) {
      final int g = unattachedAgg.get(i);
      if (t.present[g]) {
        aggregate(g);
      }
      t.aggDirty[g] = false;
    }
    unattachedAgg.clear();
    final IntList[] aggBuckets = marks.aggBuckets;
    final boolean[] participating = layout.participating;
    for (int depth = aggBuckets.length - 1; depth >= 0; depth--) {
      final IntList bucket = aggBuckets[depth];
      for (int i = 0; i < bucket.size(); i++) {
        final int g = bucket.get(i);
        if (!t.present[g] || !t.aggDirty[g]) {
          continue;
        }
        t.aggDirty[g] = false;
        final int changes = aggregate(g);
        if (changes != 0 && g != GroupTable.ROOT) {
          marks.markAgg(t.parent[g]);
          if ((changes & (LIMITED_CHANGED | GUARANTEE_CHANGED)) != 0 && participating[g]) {
            marks.markDist(t.parent[g]);
          }
        }
      }
      bucket.clear();
    }
  }

  /** Recomputes one group's request, limited request and sums from its pods and children. */
  private int aggregate(int g) {
    int changes = 0;
    int fields = 0;
    final int[] kids = t.children[g];
    final boolean validGroup = t.valid[g];
    final boolean guarantees = guaranteeUsage && t.isNormal(g);
    final int count = t.dims.count();
    for (int d = 0; d < count; d++) {
      final boolean[] tracked = t.tracked[d];
      if (!tracked[g]) {
        continue;
      }
      long request = t.ownRequest.get(d, g);
      long used = t.ownUsed.get(d, g);
      long allocated = used;
      final long[] guaranteedColumn = t.guaranteed[d];
      long npRequest = t.ownNpRequest.get(d, g);
      long npUsed = t.ownNpUsed.get(d, g);
      final long[] limitedColumn = t.limited[d];
      final long[] usedColumn = t.used[d];
      final long[] npRequestColumn = t.npRequest[d];
      final long[] npUsedColumn = t.npUsed[d];
      for (final int c : kids) {
        if (!tracked[c]) {
          continue;
        }
        // A valid parent asks only for its valid children; used and the non-preemptible sums
        // are physical and add up raw.
        if (t.valid[c] || !validGroup) {
          request = Arith.add(request, limitedColumn[c]);
        }
        used = Arith.add(used, usedColumn[c]);
        allocated = Arith.add(allocated, guaranteedColumn[c]);
        npRequest = Arith.add(npRequest, npRequestColumn[c]);
        npUsed = Arith.add(npUsed, npUsedColumn[c]);
      }
      final long guaranteed = guarantees ? Math.max(t.min[d][g], allocated) : 0L;
      if (guaranteedColumn[g] != guaranteed) {
        guaranteedColumn[g] = guaranteed;
        changes |= GUARANTEE_CHANGED;
        fields |= StatusBuilder.GUARANTEED;
      }
      request = Math.max(request, t.floor[d][g]);
      final long limited = Math.min(request, t.effMax[d][g]);
      if (t.request[d][g] != request) {
        t.request[d][g] = request;
        fields |= StatusBuilder.REQUEST;
      }
      if (limitedColumn[g] != limited) {
        limitedColumn[g] = limited;
        changes |= LIMITED_CHANGED;
        fields |= StatusBuilder.LIMITED;
      }
      if (usedColumn[g] != used) {
        usedColumn[g] = used;
        changes |= SUMS_CHANGED;
        fields |= StatusBuilder.USED;
      }
      if (npRequestColumn[g] != npRequest) {
        npRequestColumn[g] = npRequest;
        changes |= SUMS_CHANGED;
        fields |= StatusBuilder.NP_REQUEST;
      }
      if (npUsedColumn[g] != npUsed) {
        npUsedColumn[g] = npUsed;
        changes |= SUMS_CHANGED;
        fields |= StatusBuilder.NP_USED;
      }
    }
    if (fields != 0) {
      marks.markStatus(g, fields);
    }
    return changes;
  }

  /** Every aggregate of one dimension, children before parents, its columns read once. */
  void aggregateDimension(int d) {
    final ColumnAggregator column = new ColumnAggregator(d);
    for (final int g : layout.unattached) {
      column.aggregate(g);
    }
    // Every child before its parent: the leaves, then the parents deepest first.
    final int[] leafRuns = layout.leafRuns;
    for (int r = 0; r < leafRuns.length; r += 2) {
      column.aggregateLeaves(leafRuns[r], leafRuns[r + 1]);
    }
    final int[] splitters = layout.splitters;
    for (int i = splitters.length - 1; i >= 0; i--) {
      column.aggregate(splitters[i]);
    }
  }

  /** {@link #aggregate} for one dimension, over columns read once. */
  private final class ColumnAggregator {
    private final boolean[] tracked;
    private final boolean[] valid = t.valid;
    private final int[][] children = t.children;
    private final long[] ownRequest;
    private final long[] ownUsed;
    private final long[] ownNpRequest;
    private final long[] ownNpUsed;
    private final long[] floor;
    private final long[] effMax;
    private final long[] requestColumn;
    private final long[] limitedColumn;
    private final long[] usedColumn;
    private final long[] npRequestColumn;
    private final long[] npUsedColumn;
    private final long[] minColumn;
    private final long[] guaranteedColumn;

    ColumnAggregator(int d) {
      tracked = t.tracked[d];
      ownRequest = t.ownRequest.column(d);
      ownUsed = t.ownUsed.column(d);
      ownNpRequest = t.ownNpRequest.column(d);
      ownNpUsed = t.ownNpUsed.column(d);
      floor = t.floor[d];
      effMax = t.effMax[d];
      requestColumn = t.request[d];
      limitedColumn = t.limited[d];
      usedColumn = t.used[d];
      npRequestColumn = t.npRequest[d];
      npUsedColumn = t.npUsed[d];
      minColumn = t.min[d];
      guaranteedColumn = t.guaranteed[d];
    }

    /** {@link #aggregate} for the groups {@code [from, to)}, none with children. */
    void aggregateLeaves(int from, int to) {
      for (int start = from; start < to; start += LEAF_BLOCK) {
        final int end = Math.min(to, start + LEAF_BLOCK);
        if (leavesUnchanged(start, end)) {
          continue;
        }
        for (int g = start; g < end; g++) {
          if (tracked[g]) {
            record(g, ownRequest[g], ownUsed[g], ownNpRequest[g], ownNpUsed[g], ownUsed[g]);
          }
        }
      }
    }

    /**
     * Whether {@link #record} would change nothing for the leaves {@code [from, to)}: one loop
     * without branches or stores that ORs together every difference (usually none, so the block is
     * done).
     */
    private boolean leavesUnchanged(int from, int to) {
      long difference = 0;
      for (int g = from; g < to; g++) {
        final long request = Math.max(ownRequest[g], floor[g]);
        final long limited = Math.min(request, effMax[g]);
        final long guaranteed = guarantees(g) ? Math.max(minColumn[g], ownUsed[g]) : 0L;
        final long change =
            (requestColumn[g] ^ request)
                | (limitedColumn[g] ^ limited)
                | (usedColumn[g] ^ ownUsed[g])
                | (npRequestColumn[g] ^ ownNpRequest[g])
                | (npUsedColumn[g] ^ ownNpUsed[g])
                | (guaranteedColumn[g] ^ guaranteed);
        difference |= tracked[g] ? change : 0;
      }
      return difference == 0;
    }

    void aggregate(int g) {
      if (!tracked[g]) {
        return;
      }
      long request = ownRequest[g];
      long used = ownUsed[g];
      long npRequest = ownNpRequest[g];
      long npUsed = ownNpUsed[g];
      long allocated = ownUsed[g];
      final boolean validGroup = valid[g];
      // Without branches, and without a saturation check per addition: every amount is
      // non-negative, so a plain sum overflowed iff it went negative at some point, and the
      // saturated sum is then Long.MAX_VALUE.
      boolean requestOverflow = false;
      boolean usedOverflow = false;
      boolean npRequestOverflow = false;
      boolean npUsedOverflow = false;
      boolean allocatedOverflow = false;
      for (final int c : children[g]) {
        final boolean counted = tracked[c];
        // A valid parent asks only for its valid children; the other sums add up raw.
        request += counted & (valid[c] | !validGroup) ? limitedColumn[c] : 0;
        used += counted ? usedColumn[c] : 0;
        npRequest += counted ? npRequestColumn[c] : 0;
        npUsed += counted ? npUsedColumn[c] : 0;
        allocated += counted ? guaranteedColumn[c] : 0;
        allocatedOverflow |= allocated < 0;
        requestOverflow |= request < 0;
        usedOverflow |= used < 0;
        npRequestOverflow |= npRequest < 0;
        npUsedOverflow |= npUsed < 0;
      }
      record(
          g,
          requestOverflow ? Long.MAX_VALUE : request,
          usedOverflow ? Long.MAX_VALUE : used,
          npRequestOverflow ? Long.MAX_VALUE : npRequest,
          npUsedOverflow ? Long.MAX_VALUE : npUsed,
          allocatedOverflow ? Long.MAX_VALUE : allocated);
    }

    /** Whether group {@code g} has a guaranteed amount to compute. */
    private boolean guarantees(int g) {
      return guaranteeUsage && t.isNormal(g);
    }

    /** Applies the floor and the max to the summed request and stores what changed. */
    private void record(
        int g, long summedRequest, long used, long npRequest, long npUsed, long allocated) {
      final long request = Math.max(summedRequest, floor[g]);
      final long limited = Math.min(request, effMax[g]);
      final long guaranteed = guarantees(g) ? Math.max(minColumn[g], allocated) : 0L;
      int fields = 0;
      if (guaranteedColumn[g] != guaranteed) {
        guaranteedColumn[g] = guaranteed;
        fields |= StatusBuilder.GUARANTEED;
      }
      if (requestColumn[g] != request) {
        requestColumn[g] = request;
        fields |= StatusBuilder.REQUEST;
      }
      if (limitedColumn[g] != limited) {
        limitedColumn[g] = limited;
        fields |= StatusBuilder.LIMITED;
      }
      if (usedColumn[g] != used) {
        usedColumn[g] = used;
        fields |= StatusBuilder.USED;
      }
      if (npRequestColumn[g] != npRequest) {
        npRequestColumn[g] = npRequest;
        fields |= StatusBuilder.NP_REQUEST;
      }
      if (npUsedColumn[g] != npUsed) {
        npUsedColumn[g] = npUsed;
        fields |= StatusBuilder.NP_USED;
      }
      if (fields != 0) {
        marks.markStatus(g, fields);
      }
    }
  }
}
