package io.quotaflow.reservation;

import io.quotaflow.quota.ResourceList;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Chooses the nodes to lock for one reservation: a set of candidates whose allocatable covers the
 * target in every dimension it names, with at least its node count, within the locked-share cap,
 * and irreducible (no node can be dropped and the rest still cover). Among such sets, the best by
 * the design's criteria in its order, compared lexicographically:
 *
 * <ol>
 *   <li>least excess over the target: {@code Σ over the dimensions of (allocatable − target)}, each
 *       dimension scaled to millionths of the cluster total so dimensions of different units add
 *       up. Every dimension of the cluster counts, a dimension the reservation does not name with a
 *       target of 0 (a GPU node locked for a cpu reservation wastes its GPUs), except the pod-slot
 *       count {@code pods}, which every node has and would make fewer nodes always tighter;
 *   <li>most of the group's own use on the nodes (its pods' requests there, on the same scale);
 *   <li>fewest nodes;
 *   <li>most idle allocatable (on the same scale);
 *   <li>most nodes the group locks already; then the smallest list of names.
 * </ol>
 *
 * <p>Nodes with the same allocatable are interchangeable for coverage, excess, count and cap, so
 * the search runs over how many nodes of each such shape to take, and within a shape takes the best
 * nodes by criteria 2, 4 and 5 (which is exact: those criteria are sums). The exact search ({@link
 * ExactLockSearch}) is a depth-first branch and bound over these counts, tried when the candidates
 * form at most {@link #EXACT_MAX_SHAPES} shapes; when it needs more than {@link #EXACT_STEP_BUDGET}
 * steps (never with 15 candidates or fewer: they have at most 2^16 subsets to visit; usually not
 * with a few node types either), or when there are more shapes, the heuristic ({@link
 * GreedyLockSearch}) decides: greedy on the most of what is still missing covered per unit of
 * allocatable locked, pruned to an irreducible set, then improved by single swaps (at most {@link
 * #IMPROVEMENT_ROUNDS} rounds). The heuristic always finds a set when the candidates cover the
 * target and no cap binds; under a binding cap it may miss one. Deterministic throughout.
 *
 * <p>Rounding: scaling to millionths rounds each node's amount down and the target up; it only
 * ranks sets, coverage and the cap are checked on exact amounts.
 */
public final class LockChooser {

  /** Steps of the exact search before the heuristic decides instead: 2^16. */
  public static final int EXACT_STEP_BUDGET = 1 << 16;

  /**
   * The most node shapes (candidates with distinct allocatable) the exact search is tried on: with
   * more, it would almost always run out of steps, and trying costs more than the heuristic.
   */
  public static final int EXACT_MAX_SHAPES = 64;

  /** Rounds of single swaps the heuristic tries after its greedy choice. */
  public static final int IMPROVEMENT_ROUNDS = 16;

  /** The pod-slot dimension, left out of the ranking (see the class comment). */
  static final String POD_SLOTS = "pods";

  /** Amounts to cover are capped here (2^61), so that sums of a few nodes never overflow. */
  static final long MAX_AMOUNT = 1L << 61;

  /** The scale amounts are ranked on: millionths of the cluster total. */
  static final long SCALE = 1_000_000L;

  private LockChooser() {}

  /**
   * The best set: exact when the candidates form at most {@link #EXACT_MAX_SHAPES} shapes and the
   * search fits its budget, else the heuristic's.
   */
  public static Optional<LockChoice> choose(LockRequest request) {
    final ShapedRequest shaped = new ShapedRequest(request);
    if (shaped.shapes.length > EXACT_MAX_SHAPES) {
      return heuristic(shaped);
    }
    try {
      return exact(shaped, EXACT_STEP_BUDGET);
    } catch (ExactLockSearch.BudgetExhausted e) {
      return heuristic(shaped);
    }
  }

  /** The best set by exhaustive search, however long it takes (tests and benchmarks). */
  public static Optional<LockChoice> exact(LockRequest request) {
    return exact(new ShapedRequest(request), Long.MAX_VALUE);
  }

  /** The heuristic's set (tests and benchmarks). */
  public static Optional<LockChoice> heuristic(LockRequest request) {
    return heuristic(new ShapedRequest(request));
  }

  private static Optional<LockChoice> exact(ShapedRequest request, long budget) {
    return ExactLockSearch.run(request, budget).map(nodes -> new LockChoice(nodes, true));
  }

  private static Optional<LockChoice> heuristic(ShapedRequest request) {
    return GreedyLockSearch.run(request).map(nodes -> new LockChoice(nodes, false));
  }

  /** Whether {@code nodes} (all among the candidates) cover the target in every dimension. */
  public static boolean covers(
      ReservationTarget target, List<ReservationCandidate> candidates, List<String> nodes) {
    if (nodes.size() < target.minNodes()) {
      return false;
    }
    ResourceList sum = ResourceList.empty();
    for (final ReservationCandidate candidate : candidates) {
      if (nodes.contains(candidate.name())) {
        sum = sum.plus(candidate.allocatable());
      }
    }
    for (final Map.Entry<String, Long> entry : target.amounts().asMap().entrySet()) {
      if (sum.get(entry.getKey()) < entry.getValue()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code nodes} cover the target and no node can be dropped with the rest still covering.
   */
  public static boolean irreducible(
      ReservationTarget target, List<ReservationCandidate> candidates, List<String> nodes) {
    if (!covers(target, candidates, nodes)) {
      return false;
    }
    for (final String node : nodes) {
      final List<String> rest = new ArrayList<>(nodes);
      rest.remove(node);
      if (covers(target, candidates, rest)) {
        return false;
      }
    }
    return true;
  }

  /** {@code floor(max(0, amount) × SCALE / total)}, 0 when the total is 0. */
  static long scaled(long amount, long total) {
    if (total <= 0 || amount <= 0) {
      return 0;
    }
    if (amount <= Long.MAX_VALUE / SCALE) {
      return amount * SCALE / total;
    }
    return BigInteger.valueOf(amount)
        .multiply(BigInteger.valueOf(SCALE))
        .divide(BigInteger.valueOf(total))
        .longValue();
  }

  /** {@code ceil(amount × SCALE / total)}, 0 when the total is 0. */
  static long scaledUp(long amount, long total) {
    if (total <= 0 || amount <= 0) {
      return 0;
    }
    final BigInteger[] qr =
        BigInteger.valueOf(amount)
            .multiply(BigInteger.valueOf(SCALE))
            .divideAndRemainder(BigInteger.valueOf(total));
    return qr[0].longValue() + (qr[1].signum() > 0 ? 1 : 0);
  }
}
