package io.quotaflow.reservation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The heuristic of {@link LockChooser}, for requests the exact search cannot finish: greedy on the
 * most of what is still missing covered per unit of allocatable locked, pruned to an irreducible
 * set, then improved by single swaps (at most {@link LockChooser#IMPROVEMENT_ROUNDS} rounds). It
 * always finds a set when the candidates cover the target and no cap binds; under a binding cap it
 * may miss one.
 */
final class GreedyLockSearch {

  private final ShapedRequest request;
  private final NodeShape[] shapes;
  private final ShapeSelection set;

  private GreedyLockSearch(ShapedRequest request) {
    this.request = request;
    this.shapes = request.shapes;
    this.set = new ShapeSelection(request);
  }

  /** The heuristic's set, or empty when it finds none. */
  static Optional<List<String>> run(ShapedRequest request) {
    return new GreedyLockSearch(request).run();
  }

  private Optional<List<String>> run() {
    int count = 0;
    while (!set.covered(count)) {
      final int s = greediest();
      if (s < 0) {
        return Optional.empty();
      }
      set.add(s, 1);
      count++;
    }
    count = prune(count);
    for (int round = 0; round < LockChooser.IMPROVEMENT_ROUNDS; round++) {
      if (!improve(count)) {
        break;
      }
    }
    return Optional.of(request.names(set.counts));
  }

  /**
   * The shape whose next node covers the most of what is missing per unit of allocatable it locks
   * (all on the ranking scale); -1 when none helps. When only the node count is short, the smallest
   * node.
   */
  private int greediest() {
    final long[] missing = new long[request.coverDims.length];
    boolean resourcesMissing = false;
    for (int j = 0; j < missing.length; j++) {
      final long deficit = request.target[j] - set.sum[j];
      if (deficit > 0) {
        // The target's dimensions come first among the rank dimensions: the same scale.
        missing[j] = Math.max(1, LockChooser.scaled(deficit, request.rankTotals[j]));
        resourcesMissing = true;
      }
    }
    int chosenShape = -1;
    long chosenGain = 0;
    for (int s = 0; s < shapes.length; s++) {
      final NodeShape shape = shapes[s];
      if (set.counts[s] >= shape.nodes.size() || !set.fitsCap(shape)) {
        continue;
      }
      long gain = 0;
      boolean helps = false;
      for (int j = 0; j < missing.length; j++) {
        if (missing[j] > 0 && shape.cover[j] > 0) {
          helps = true;
          gain += Math.max(1, Math.min(shape.ranked[j], missing[j]));
        }
      }
      if (resourcesMissing && !helps) {
        continue;
      }
      if (chosenShape < 0 || better(s, gain, chosenShape, chosenGain)) {
        chosenShape = s;
        chosenGain = gain;
      }
    }
    return chosenShape;
  }

  /**
   * Greedy order: more gain per unit of size (compared exactly, by cross products), then more gain,
   * then smaller nodes, then the better next node.
   */
  private boolean better(int s, long gain, int other, long otherGain) {
    final long size = Math.max(1, shapes[s].size);
    final long otherSize = Math.max(1, shapes[other].size);
    final int efficiency =
        Long.compare(
            Math.multiplyHigh(gain, otherSize) == 0 ? gain * otherSize : Long.MAX_VALUE,
            Math.multiplyHigh(otherGain, size) == 0 ? otherGain * size : Long.MAX_VALUE);
    if (efficiency != 0) {
      return efficiency > 0;
    }
    if (gain != otherGain) {
      return gain > otherGain;
    }
    if (shapes[s].size != shapes[other].size) {
      return shapes[s].size < shapes[other].size;
    }
    return compareNext(s, other) < 0;
  }

  /** Compares the next untaken node of two shapes: use, idle, held, then name. */
  private int compareNext(int s, int other) {
    final NodeShape a = shapes[s];
    final NodeShape b = shapes[other];
    final int i = set.counts[s];
    final int k = set.counts[other];
    int c =
        Long.compare(b.usedPrefix[k + 1] - b.usedPrefix[k], a.usedPrefix[i + 1] - a.usedPrefix[i]);
    if (c == 0) {
      c =
          Long.compare(
              b.idlePrefix[k + 1] - b.idlePrefix[k], a.idlePrefix[i + 1] - a.idlePrefix[i]);
    }
    if (c == 0) {
      c =
          Long.compare(
              b.heldPrefix[k + 1] - b.heldPrefix[k], a.heldPrefix[i + 1] - a.heldPrefix[i]);
    }
    if (c == 0) {
      c = a.nodes.get(i).name().compareTo(b.nodes.get(k).name());
    }
    return c;
  }

  /** Drops nodes while the rest still covers, largest first; returns the count left. */
  private int prune(int count) {
    while (true) {
      int drop = -1;
      for (int i = 0; i < set.chosenCount; i++) {
        final int s = set.chosen[i];
        if (set.removable(s, count)
            && (drop < 0
                || shapes[s].size > shapes[drop].size
                || (shapes[s].size == shapes[drop].size && s > drop))) {
          drop = s;
        }
      }
      if (drop < 0) {
        return count;
      }
      set.add(drop, -1);
      count--;
    }
  }

  /**
   * One round of swaps: the single exchange of a taken node for a node of another shape that gives
   * the best irreducible covering set, if it is better than the current one. Candidates are looked
   * at by excess first (cheap to know), so that only the few of the least excess are checked in
   * full.
   */
  private boolean improve(int count) {
    final LockRank current = set.rank(count);
    final int[] taken = Arrays.copyOf(set.chosen, set.chosenCount);
    Arrays.sort(taken);
    final List<long[]> swaps = new ArrayList<>();
    for (final int s : taken) {
      set.add(s, -1);
      for (int t = 0; t < shapes.length; t++) {
        if (t == s || set.counts[t] >= shapes[t].nodes.size()) {
          continue;
        }
        final long excess = set.excessWith(t);
        if (excess <= current.excess() && set.coveredWith(t, count)) {
          swaps.add(new long[] {excess, s, t});
        }
      }
      set.add(s, 1);
    }
    swaps.sort(
        Comparator.comparingLong((long[] swap) -> swap[0])
            .thenComparingLong(swap -> swap[1])
            .thenComparingLong(swap -> swap[2]));
    LockRank bestSwap = current;
    int out = -1;
    int in = -1;
    for (final long[] swap : swaps) {
      if (out >= 0 && swap[0] > bestSwap.excess()) {
        break;
      }
      final int s = (int) swap[1];
      final int t = (int) swap[2];
      set.add(s, -1);
      if (set.fitsCap(shapes[t])) {
        set.add(t, 1);
        if (set.irreducible(count)) {
          final LockRank candidate = set.rank(count);
          if (candidate.compareTo(bestSwap) < 0) {
            bestSwap = candidate;
            out = s;
            in = t;
          }
        }
        set.add(t, -1);
      }
      set.add(s, 1);
    }
    if (out < 0) {
      return false;
    }
    set.add(out, -1);
    set.add(in, 1);
    return true;
  }
}
