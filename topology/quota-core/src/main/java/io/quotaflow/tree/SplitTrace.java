package io.quotaflow.tree;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What one {@link WaterFill} distribution did, recorded as it ran, by the children's positions in
 * the split: whether the mins were scaled, where each child started, and each round of the surplus.
 * {@link RuntimeExplainer} turns it into an explanation with names and units.
 */
final class SplitTrace {

  /** One round of the surplus: who competed, the shares before and after the leftover units. */
  static final class Round {
    final long left;
    final int[] competitors;
    final long[] quotients;
    final long[] shares;
    final long[] before;
    long[] after;
    long handedBack;

    Round(long left, int[] competitors, long[] quotients, long[] shares, long[] before) {
      this.left = left;
      this.competitors = competitors;
      this.quotients = quotients;
      this.shares = shares;
      this.before = before;
    }
  }

  boolean scaled;
  long minSum;
  long[] starts = new long[0];
  long startedSum;

  /** The positions of the children that compete for the surplus. */
  int[] borrowers = new int[0];

  /** Set when the surplus covered every borrower's ask at once (or the parent is unbounded). */
  boolean allFit;

  long need;
  int[] fitting = new int[0];
  final List<Round> rounds = new ArrayList<>();
  private long[] pendingQuotients;

  void minsScaled(boolean scaled, long minSum) {
    this.scaled = scaled;
    this.minSum = minSum;
  }

  void started(long[] runtime, int n, long sum, int[] active, int borrowers) {
    starts = Arrays.copyOf(runtime, n);
    startedSum = sum;
    this.borrowers = Arrays.copyOf(active, borrowers);
  }

  void allFit(long need, long left, int[] active, int borrowers) {
    this.allFit = true;
    this.need = need;
    this.fitting = Arrays.copyOf(active, borrowers);
  }

  void quotients(long[] share, int count) {
    pendingQuotients = Arrays.copyOf(share, count);
  }

  void round(long left, int[] active, int count, long[] share, long[] runtime) {
    final int[] competitors = Arrays.copyOf(active, count);
    final long[] before = new long[count];
    for (int a = 0; a < count; a++) {
      before[a] = runtime[competitors[a]];
    }
    rounds.add(
        new Round(
            left,
            competitors,
            pendingQuotients == null ? Arrays.copyOf(share, count) : pendingQuotients,
            Arrays.copyOf(share, count),
            before));
    pendingQuotients = null;
  }

  void roundDone(long[] runtime, long returned) {
    final Round round = rounds.get(rounds.size() - 1);
    round.after = new long[round.competitors.length];
    for (int a = 0; a < round.competitors.length; a++) {
      round.after[a] = runtime[round.competitors[a]];
    }
    round.handedBack = returned;
  }
}
