package io.quotaflow.tree;

import io.quotaflow.fairshare.MemoryWeights;
import io.quotaflow.quota.SpecialGroups;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One parent's split in one dimension, over computed statuses: who takes part (its valid normal
 * children tracking the dimension, by name, as in the full computation's layout) and their inputs
 * to the {@link WaterFill}. The what-if ({@link WhatIfRuntimes}) and the explanation ({@link
 * RuntimeExplainer}) both run splits through here, with the same {@link WaterFill} as the full
 * computation.
 */
final class StatusSplit {

  final List<GroupStatus> members;
  final long[] request;
  final long[] min;
  final long[] weight;
  final long[] guaranteed;

  /** Each member's weight from its status, before fair share with memory. */
  final long[] baseWeight;

  /** Each member's decayed average borrowed (section 24), from its status. */
  final long[] pastBorrowed;

  /** Each member's factor (section 24), set by {@link #remember}; all one until then. */
  final long[] factor;

  /** The shift of the effective weights, set by {@link #remember}. */
  private int shift;

  private StatusSplit(List<GroupStatus> members, String dimension) {
    this.members = members;
    final int n = members.size();
    request = new long[n];
    min = new long[n];
    weight = new long[n];
    guaranteed = new long[n];
    baseWeight = new long[n];
    pastBorrowed = new long[n];
    factor = new long[n];
    for (int c = 0; c < n; c++) {
      final GroupStatus child = members.get(c);
      request[c] = child.limitedRequest().get(dimension);
      min[c] = Math.max(0L, child.min().get(dimension));
      weight[c] = Math.max(0L, child.sharedWeight().get(dimension));
      guaranteed[c] = Math.max(0L, child.guaranteed().get(dimension));
      baseWeight[c] = weight[c];
      pastBorrowed[c] = Math.max(0L, child.pastBorrowed().get(dimension));
      factor[c] = MemoryWeights.ONE;
    }
  }

  /**
   * Fair share with memory (section 24), as the full computation applies it: turns {@link #weight}
   * into the effective weights of a split of {@code available}, from each member's past usage. A
   * split without past usage, or an unbounded one, is left as it is.
   *
   * @return this split
   */
  StatusSplit remember(long available, boolean unbounded) {
    if (unbounded) {
      return this;
    }
    long largest = 0;
    for (int c = 0; c < weight.length; c++) {
      factor[c] =
          pastBorrowed[c] == 0
              ? MemoryWeights.ONE
              : MemoryWeights.factor(available, pastBorrowed[c]);
      largest = Math.max(largest, baseWeight[c]);
    }
    if (MemoryWeights.apply(weight.length, weight, factor)) {
      shift = MemoryWeights.shift(largest);
    }
    return this;
  }

  /** The shift of the effective weights (section 24): 0 unless the largest weight has 48 bits. */
  int shift() {
    return shift;
  }

  /** Whether {@link #remember} changed any weight. */
  boolean remembers() {
    for (final long f : factor) {
      if (f != MemoryWeights.ONE) {
        return true;
      }
    }
    return false;
  }

  /** The effective weight member {@code c} would have with base weight {@code base}. */
  long effectiveWeight(int c, long base) {
    return remembers() ? MemoryWeights.effective(base, factor[c], shift) : base;
  }

  /** The split of {@code parent} in {@code dimension}, among {@code participants}. */
  static StatusSplit of(List<GroupStatus> participants, String dimension) {
    final List<GroupStatus> members = new ArrayList<>();
    for (final GroupStatus child : participants) {
      if (child.trackedDimensions().contains(dimension)) {
        members.add(child);
      }
    }
    return new StatusSplit(members, dimension);
  }

  /**
   * The valid normal children of {@code parent}, by name: who takes part in its split. The roots of
   * profile trees are computed in their own trees, never in the default tree's split.
   */
  static List<GroupStatus> participants(WhatIfInputs inputs, String parent) {
    final List<GroupStatus> result = new ArrayList<>();
    for (final GroupStatus child : inputs.children(parent)) {
      if (child.valid()
          && parent.equals(child.parent())
          && !SpecialGroups.isSpecial(child.name())
          && !inputs.headsTree(child.name())) {
        result.add(child);
      }
    }
    result.sort(Comparator.comparing(GroupStatus::name));
    return result;
  }

  /** The position of {@code name} in the split, or -1. */
  int indexOf(String name) {
    for (int c = 0; c < members.size(); c++) {
      if (members.get(c).name().equals(name)) {
        return c;
      }
    }
    return -1;
  }

  /**
   * Runs the split of {@code available}; {@code trace} records it when not null.
   *
   * @return {scaled mins, runtimes}, by position
   */
  long[][] run(
      WaterFill fill, long available, boolean unbounded, QuotaOptions options, SplitTrace trace) {
    final int n = members.size();
    final long[] scaled = new long[n];
    final long[] runtime = new long[n];
    final long[] guarantees = options.guaranteeUsage() ? guaranteed : null;
    if (trace == null) {
      fill.distribute(
          available,
          unbounded,
          n,
          request,
          min,
          weight,
          options.minScaling(),
          guarantees,
          scaled,
          runtime);
    } else {
      fill.distributeTraced(
          trace,
          available,
          unbounded,
          n,
          request,
          min,
          weight,
          options.minScaling(),
          guarantees,
          scaled,
          runtime);
    }
    return new long[][] {scaled, runtime};
  }
}
