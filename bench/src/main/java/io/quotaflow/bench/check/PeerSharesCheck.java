package io.quotaflow.bench.check;

import io.quotaflow.bench.cluster.Dimensions;
import io.quotaflow.bench.cluster.SyntheticCluster;
import io.quotaflow.bench.peer.YarnFairSharePeer;
import java.util.ArrayList;
import java.util.List;

/**
 * The peer's counterpart of {@link SnapshotCheck}: YARN's shares of a synthetic cluster stay within
 * each parent's share up to YARN's precision, the first level receives the cluster total (or all it
 * asks for, if that is less) and borrowers receive more than their min.
 *
 * <p>YARN's precision: {@code ComputeFairShares} keeps the upper end of a 25-step binary search
 * over a step function (each share is truncated to a long), so the children of one parent may
 * together receive a little more than the parent holds: up to one unit per child, plus the search's
 * relative error. That is visible with GPUs (a few dozen devices per parent).
 */
public final class PeerSharesCheck {

  /** ComputeFairShares stops its binary search after 25 halvings. */
  private static final double SEARCH_SLACK = 1e-6;

  private PeerSharesCheck() {}

  /** Every violation found, empty when the shares are sane. */
  public static List<String> violations(
      YarnFairSharePeer peer, long[][] shares, SyntheticCluster cluster) {
    final List<String> violations = new ArrayList<>();
    final int count = peer.names().size();
    final int dims = Dimensions.ALL.size();
    final long[][] handedOut = new long[count][dims];
    final int[] childCount = new int[count];
    int aboveMin = 0;
    for (int group = 1; group < count; group++) {
      childCount[peer.parentOf(group)]++;
      for (int d = 0; d < dims; d++) {
        handedOut[peer.parentOf(group)][d] += shares[group][d];
      }
      if (shares[group][0] > peer.minShare(group, 0)) {
        aboveMin++;
      }
    }
    for (int group = 0; group < count; group++) {
      for (int d = 0; d < dims; d++) {
        if (handedOut[group][d] > shares[group][d] * (1 + SEARCH_SLACK) + childCount[group]) {
          violations.add(
              peer.names().get(group)
                  + " hands out "
                  + handedOut[group][d]
                  + " "
                  + Dimensions.ALL.get(d)
                  + " but holds "
                  + shares[group][d]);
        }
      }
    }
    final long[] asked = new long[dims];
    for (int group = 1; group < count; group++) {
      if (peer.parentOf(group) == 0) {
        for (int d = 0; d < dims; d++) {
          asked[d] += peer.limitedRequest(group, d);
        }
      }
    }
    for (int d = 0; d < dims; d++) {
      final long total = cluster.total().get(Dimensions.ALL.get(d));
      final long expected = Math.min(total, asked[d]);
      if (shares[0][d] != total
          || handedOut[0][d] < expected * (1 - SEARCH_SLACK) - childCount[0]) {
        violations.add(
            "first level holds "
                + handedOut[0][d]
                + " "
                + Dimensions.ALL.get(d)
                + " where min(total, limited requests) is "
                + expected);
      }
    }
    if (aboveMin < cluster.inputs().groups().size() / 10) {
      violations.add("only " + aboveMin + " groups received cpu above their min");
    }
    return violations;
  }

  /** Throws when the shares are not sane; returns them otherwise. */
  public static long[][] requireSane(
      YarnFairSharePeer peer, long[][] shares, SyntheticCluster cluster) {
    final List<String> violations = violations(peer, shares, cluster);
    if (!violations.isEmpty()) {
      throw new IllegalStateException(
          violations.size()
              + " violations, first: "
              + violations.subList(0, Math.min(5, violations.size())));
    }
    return shares;
  }
}
