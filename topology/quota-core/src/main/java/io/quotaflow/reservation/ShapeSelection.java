package io.quotaflow.reservation;

import io.quotaflow.quota.ResourceList;

/**
 * A set being built by a search: how many nodes of each shape it takes (always the first ones of
 * the shape), with running sums of what they cover, count against the cap and weigh on the ranking
 * scale. The shapes taken are kept as a dense list, so that checking a set costs its size, not the
 * number of shapes.
 */
final class ShapeSelection {
  private final ShapedRequest request;
  private final NodeShape[] shapes;

  /** Nodes taken per shape. */
  final int[] counts;

  /** The shapes taken (counts above 0), {@code chosenCount} of them, in no order. */
  final int[] chosen;

  int chosenCount;

  /** What the set covers per target dimension. */
  final long[] sum;

  private final int[] position;
  private final long[] capSum;
  private final long[] rankedSum;

  ShapeSelection(ShapedRequest request) {
    this.request = request;
    this.shapes = request.shapes;
    counts = new int[shapes.length];
    chosen = new int[shapes.length];
    position = new int[shapes.length];
    sum = new long[request.coverDims.length];
    capSum = new long[request.capDims.length];
    rankedSum = new long[request.rankDims.length];
  }

  /** Takes {@code nodes} more nodes of shape {@code s} (fewer when negative). */
  void add(int s, int nodes) {
    final int before = counts[s];
    counts[s] += nodes;
    if (before == 0 && counts[s] > 0) {
      position[s] = chosenCount;
      chosen[chosenCount++] = s;
    } else if (before > 0 && counts[s] == 0) {
      final int last = chosen[--chosenCount];
      chosen[position[s]] = last;
      position[last] = position[s];
    }
    final NodeShape shape = shapes[s];
    for (int j = 0; j < sum.length; j++) {
      sum[j] += nodes * shape.cover[j];
    }
    for (int j = 0; j < capSum.length; j++) {
      capSum[j] += nodes * shape.capped[j];
    }
    for (int r = 0; r < rankedSum.length; r++) {
      rankedSum[r] += nodes * shape.ranked[r];
    }
  }

  /** Whether one more node of {@code shape} stays within the locked-share cap. */
  boolean fitsCap(NodeShape shape) {
    for (int j = 0; j < capSum.length; j++) {
      if (ResourceList.saturatedAdd(capSum[j], shape.capped[j]) > request.cap[j]) {
        return false;
      }
    }
    return true;
  }

  /** Whether the set, of {@code count} nodes, covers the target. */
  boolean covered(int count) {
    if (count < request.minNodes) {
      return false;
    }
    for (int j = 0; j < sum.length; j++) {
      if (sum[j] < request.target[j]) {
        return false;
      }
    }
    return true;
  }

  /** Whether the set with one more node of shape {@code t} covers the target. */
  boolean coveredWith(int t, int count) {
    if (count < request.minNodes) {
      return false;
    }
    for (int j = 0; j < sum.length; j++) {
      if (sum[j] + shapes[t].cover[j] < request.target[j]) {
        return false;
      }
    }
    return true;
  }

  /** Whether one node of shape {@code s} can go with the rest still covering. */
  boolean removable(int s, int count) {
    if (count - 1 < request.minNodes) {
      return false;
    }
    for (int j = 0; j < sum.length; j++) {
      if (sum[j] - shapes[s].cover[j] < request.target[j]) {
        return false;
      }
    }
    return true;
  }

  /** Whether no node of the set can go with the rest still covering. */
  boolean irreducible(int count) {
    for (int i = 0; i < chosenCount; i++) {
      if (removable(chosen[i], count)) {
        return false;
      }
    }
    return true;
  }

  /** The set's excess over the target on the ranking scale. */
  long excess() {
    long excess = 0;
    for (int r = 0; r < rankedSum.length; r++) {
      excess += Math.max(0, rankedSum[r] - request.rankedTarget[r]);
    }
    return excess;
  }

  /** The excess with one more node of shape {@code t}. */
  long excessWith(int t) {
    long excess = 0;
    for (int r = 0; r < rankedSum.length; r++) {
      excess += Math.max(0, rankedSum[r] + shapes[t].ranked[r] - request.rankedTarget[r]);
    }
    return excess;
  }

  LockRank rank(int count) {
    long used = 0;
    long idle = 0;
    long held = 0;
    for (int i = 0; i < chosenCount; i++) {
      final NodeShape shape = shapes[chosen[i]];
      final int c = counts[chosen[i]];
      used += shape.usedPrefix[c];
      idle += shape.idlePrefix[c];
      held += shape.heldPrefix[c];
    }
    return new LockRank(excess(), used, count, idle, held);
  }
}
