package io.quotaflow.reservation;

import io.quotaflow.quota.ResourceList;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
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
 * nodes by criteria 2, 4 and 5 (which is exact: those criteria are sums). The exact search is a
 * depth-first branch and bound over these counts, tried when the candidates form at most {@link
 * #EXACT_MAX_SHAPES} shapes; when it needs more than {@link #EXACT_STEP_BUDGET} steps (never with
 * 15 candidates or fewer: they have at most 2^16 subsets to visit; usually not with a few node
 * types either), or when there are more shapes, the heuristic decides: greedy on the most of what
 * is still missing covered per unit of allocatable locked, pruned to an irreducible set, then
 * improved by single swaps (at most {@link #IMPROVEMENT_ROUNDS} rounds). The heuristic always finds
 * a set when the candidates cover the target and no cap binds; under a binding cap it may miss one.
 * Deterministic throughout.
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
  private static final long MAX_AMOUNT = 1L << 61;

  /** The scale amounts are ranked on: millionths of the cluster total. */
  static final long SCALE = 1_000_000L;

  private LockChooser() {}

  /**
   * The best set: exact when the candidates form at most {@link #EXACT_MAX_SHAPES} shapes and the
   * search fits its budget, else the heuristic's.
   */
  public static Optional<LockChoice> choose(LockRequest request) {
    final Search search = new Search(request);
    if (search.shapes.length > EXACT_MAX_SHAPES) {
      return search.heuristic().map(nodes -> new LockChoice(nodes, false));
    }
    try {
      return search.exact(EXACT_STEP_BUDGET).map(nodes -> new LockChoice(nodes, true));
    } catch (BudgetExhausted e) {
      return search.heuristic().map(nodes -> new LockChoice(nodes, false));
    }
  }

  /** The best set by exhaustive search, however long it takes (tests and benchmarks). */
  public static Optional<LockChoice> exact(LockRequest request) {
    return new Search(request).exact(Long.MAX_VALUE).map(nodes -> new LockChoice(nodes, true));
  }

  /** The heuristic's set (tests and benchmarks). */
  public static Optional<LockChoice> heuristic(LockRequest request) {
    return new Search(request).heuristic().map(nodes -> new LockChoice(nodes, false));
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

  /** Thrown when the exact search runs out of steps. */
  private static final class BudgetExhausted extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BudgetExhausted() {
      super(null, null, false, false);
    }
  }

  /**
   * A set's rank: compared lexicographically, smaller is better. Names are compared last and only
   * built when everything else ties.
   */
  private record Rank(long excess, long used, int count, long idle, long held) {
    int compareTo(Rank other) {
      int c = Long.compare(excess, other.excess);
      if (c == 0) {
        c = Long.compare(other.used, used);
      }
      if (c == 0) {
        c = Integer.compare(count, other.count);
      }
      if (c == 0) {
        c = Long.compare(other.idle, idle);
      }
      if (c == 0) {
        c = Long.compare(other.held, held);
      }
      return c;
    }
  }

  /** Candidates with the same allocatable, best first by use, idle, held and name. */
  private static final class Shape {
    final List<ReservationCandidate> nodes = new ArrayList<>();
    long[] cover; // target dimensions
    long[] capped; // cap dimensions
    long[] ranked; // rank dimensions, scaled
    long size; // Σ ranked
    long[] usedPrefix;
    long[] idlePrefix;
    long[] heldPrefix;
    int bound; // the most nodes of this shape an irreducible set can hold
  }

  /** One request, prepared: shapes as arrays, the search state and the best set found. */
  private static final class Search {
    private final String[] coverDims;
    private final long[] target;
    private final String[] capDims;
    private final long[] cap;
    private final String[] rankDims;
    private final long[] rankTotals;
    private final long[] rankedTarget;
    private final int minNodes;
    private final Shape[] shapes;

    // Search state: how many nodes of each shape, and the shapes taken (a dense list, so that
    // checking a set costs its size, not the number of shapes).
    private int[] counts;
    private int[] chosen;
    private int[] position;
    private int chosenCount;
    private long[] sum;
    private long[] capSum;
    private long[] rankedSum;
    private long steps;
    private long budget;
    private int[] best;
    private Rank bestRank;
    private List<String> bestNames;

    Search(LockRequest request) {
      final Map<String, Long> amounts = new LinkedHashMap<>();
      request
          .target()
          .amounts()
          .asMap()
          .forEach(
              (dimension, amount) -> {
                if (amount > 0) {
                  // Beyond 2^61 nothing real is counted; the cap keeps sums of a few far from
                  // overflow.
                  amounts.put(dimension, Math.min(amount, MAX_AMOUNT));
                }
              });
      coverDims = amounts.keySet().toArray(String[]::new);
      target = amounts.values().stream().mapToLong(Long::longValue).toArray();
      capDims = request.capRemaining().names().toArray(String[]::new);
      cap = new long[capDims.length];
      for (int j = 0; j < capDims.length; j++) {
        cap[j] = Math.max(0, request.capRemaining().get(capDims[j]));
      }
      final ResourceList total = request.clusterTotal();
      rankDims = rankDimensions(coverDims, total);
      rankedTarget = new long[rankDims.length];
      rankTotals = new long[rankDims.length];
      for (int r = 0; r < rankDims.length; r++) {
        rankTotals[r] = total.get(rankDims[r]);
        rankedTarget[r] =
            scaledUp(request.target().amounts().get(rankDims[r]), total.get(rankDims[r]));
      }
      minNodes = request.target().minNodes();
      shapes = shapes(request.candidates(), total);
    }

    /** The target's dimensions first, then every other one of the cluster but pod slots. */
    private static String[] rankDimensions(String[] cover, ResourceList total) {
      final List<String> dims = new ArrayList<>(List.of(cover));
      for (final String dimension : total.names()) {
        if (!dims.contains(dimension) && !POD_SLOTS.equals(dimension)) {
          dims.add(dimension);
        }
      }
      if (dims.isEmpty()) {
        dims.addAll(total.names());
      }
      return dims.toArray(String[]::new);
    }

    private Shape[] shapes(List<ReservationCandidate> candidates, ResourceList total) {
      final Map<ResourceList, Shape> byAllocatable = new LinkedHashMap<>();
      final List<ReservationCandidate> sorted = new ArrayList<>(candidates);
      sorted.sort(Comparator.comparing(ReservationCandidate::name));
      for (final ReservationCandidate candidate : sorted) {
        byAllocatable
            .computeIfAbsent(candidate.allocatable(), a -> new Shape())
            .nodes
            .add(candidate);
      }
      final List<Shape> list = new ArrayList<>();
      for (final Map.Entry<ResourceList, Shape> entry : byAllocatable.entrySet()) {
        final ResourceList allocatable = entry.getKey();
        final Shape shape = entry.getValue();
        shape.cover = amounts(allocatable, coverDims);
        for (int j = 0; j < coverDims.length; j++) {
          // Exact for coverage: a node covers a dimension alone once it reaches the target there.
          shape.cover[j] = Math.min(shape.cover[j], target[j]);
        }
        shape.capped = amounts(allocatable, capDims);
        shape.ranked = new long[rankDims.length];
        for (int r = 0; r < rankDims.length; r++) {
          shape.ranked[r] = scaled(allocatable.get(rankDims[r]), total.get(rankDims[r]));
          shape.size += shape.ranked[r];
        }
        final int n = shape.nodes.size();
        final Map<ReservationCandidate, long[]> keys = new LinkedHashMap<>();
        for (final ReservationCandidate node : shape.nodes) {
          keys.put(
              node,
              new long[] {
                rankedSum(node.groupUsed(), total),
                rankedSum(node.idle(), total),
                node.heldByGroup() ? 1 : 0
              });
        }
        shape.nodes.sort(
            Comparator.comparingLong((ReservationCandidate node) -> -keys.get(node)[0])
                .thenComparingLong(node -> -keys.get(node)[1])
                .thenComparingLong(node -> -keys.get(node)[2])
                .thenComparing(ReservationCandidate::name));
        shape.usedPrefix = new long[n + 1];
        shape.idlePrefix = new long[n + 1];
        shape.heldPrefix = new long[n + 1];
        for (int i = 0; i < n; i++) {
          final long[] key = keys.get(shape.nodes.get(i));
          shape.usedPrefix[i + 1] = shape.usedPrefix[i] + key[0];
          shape.idlePrefix[i + 1] = shape.idlePrefix[i] + key[1];
          shape.heldPrefix[i + 1] = shape.heldPrefix[i] + key[2];
        }
        shape.bound = Math.min(n, bound(shape));
        list.add(shape);
      }
      // Larger shapes first: the search finds covering sets, and so tight bounds, sooner.
      list.sort(
          Comparator.comparingLong((Shape shape) -> -shape.size)
              .thenComparing(shape -> shape.nodes.get(0).name()));
      return list.toArray(Shape[]::new);
    }

    private long rankedSum(ResourceList amounts, ResourceList total) {
      long sum = 0;
      for (final String dimension : rankDims) {
        sum += scaled(amounts.get(dimension), total.get(dimension));
      }
      return sum;
    }

    private static long[] amounts(ResourceList list, String[] dimensions) {
      final long[] amounts = new long[dimensions.length];
      for (int j = 0; j < dimensions.length; j++) {
        amounts[j] = Math.max(0, list.get(dimensions[j]));
      }
      return amounts;
    }

    /**
     * The most nodes of {@code shape} an irreducible set holds: dropping one of them must uncover a
     * dimension it adds to, so there are at most {@code ceil(target / amount)} of them in such a
     * dimension; or the node count must fall short.
     */
    private int bound(Shape shape) {
      long most = minNodes;
      for (int j = 0; j < coverDims.length; j++) {
        if (shape.cover[j] > 0) {
          most = Math.max(most, (target[j] + shape.cover[j] - 1) / shape.cover[j]);
        }
      }
      return (int) Math.min(Integer.MAX_VALUE, most);
    }

    private void reset() {
      counts = new int[shapes.length];
      chosen = new int[shapes.length];
      position = new int[shapes.length];
      chosenCount = 0;
      sum = new long[coverDims.length];
      capSum = new long[capDims.length];
      rankedSum = new long[rankDims.length];
      best = null;
      bestRank = null;
      bestNames = null;
    }

    // ------------------------------------------------------------------------------------------
    // Exact

    Optional<List<String>> exact(long stepBudget) {
      reset();
      budget = stepBudget;
      steps = 0;
      final long[][] suffix = new long[shapes.length + 1][coverDims.length];
      final long[] suffixCount = new long[shapes.length + 1];
      for (int s = shapes.length - 1; s >= 0; s--) {
        for (int j = 0; j < coverDims.length; j++) {
          suffix[s][j] =
              saturatedAdd(suffix[s + 1][j], multiply(shapes[s].bound, shapes[s].cover[j]));
        }
        suffixCount[s] = suffixCount[s + 1] + shapes[s].bound;
      }
      dfs(0, 0, suffix, suffixCount);
      return best == null ? Optional.empty() : Optional.of(names(best));
    }

    private void dfs(int s, int count, long[][] suffix, long[] suffixCount) {
      if (++steps > budget) {
        throw new BudgetExhausted();
      }
      if (covered(count)) {
        consider(count);
        return;
      }
      if (s == shapes.length) {
        return;
      }
      for (int j = 0; j < coverDims.length; j++) {
        if (saturatedAdd(sum[j], suffix[s][j]) < target[j]) {
          return;
        }
      }
      if (count + suffixCount[s] < minNodes) {
        return;
      }
      if (bestRank != null && excess() > bestRank.excess()) {
        return;
      }
      final Shape shape = shapes[s];
      int taken = 0;
      dfs(s + 1, count, suffix, suffixCount);
      while (taken < shape.bound && !covered(count + taken)) {
        if (!fitsCap(shape)) {
          break;
        }
        add(s, 1);
        taken++;
        dfs(s + 1, count + taken, suffix, suffixCount);
      }
      add(s, -taken);
    }

    // ------------------------------------------------------------------------------------------
    // Heuristic

    Optional<List<String>> heuristic() {
      reset();
      int count = 0;
      while (!covered(count)) {
        final int s = greediest(count);
        if (s < 0) {
          return Optional.empty();
        }
        add(s, 1);
        count++;
      }
      count = prune(count);
      for (int round = 0; round < IMPROVEMENT_ROUNDS; round++) {
        if (!improve(count)) {
          break;
        }
      }
      return Optional.of(names(counts));
    }

    /**
     * The shape whose next node covers the most of what is missing per unit of allocatable it locks
     * (all on the ranking scale); -1 when none helps. When only the node count is short, the
     * smallest node.
     */
    private int greediest(int count) {
      final long[] missing = new long[coverDims.length];
      boolean resourcesMissing = false;
      for (int j = 0; j < coverDims.length; j++) {
        final long deficit = target[j] - sum[j];
        if (deficit > 0) {
          // The target's dimensions come first among the rank dimensions: the same scale.
          missing[j] = Math.max(1, scaled(deficit, rankTotals[j]));
          resourcesMissing = true;
        }
      }
      int chosenShape = -1;
      long chosenGain = 0;
      for (int s = 0; s < shapes.length; s++) {
        final Shape shape = shapes[s];
        if (counts[s] >= shape.nodes.size() || !fitsCap(shape)) {
          continue;
        }
        long gain = 0;
        boolean helps = false;
        for (int j = 0; j < coverDims.length; j++) {
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
     * Greedy order: more gain per unit of size (compared exactly, by cross products), then more
     * gain, then smaller nodes, then the better next node.
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
      final Shape a = shapes[s];
      final Shape b = shapes[other];
      final int i = counts[s];
      final int k = counts[other];
      int c =
          Long.compare(
              b.usedPrefix[k + 1] - b.usedPrefix[k], a.usedPrefix[i + 1] - a.usedPrefix[i]);
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
        for (int i = 0; i < chosenCount; i++) {
          final int s = chosen[i];
          if (removable(s, count)
              && (drop < 0
                  || shapes[s].size > shapes[drop].size
                  || (shapes[s].size == shapes[drop].size && s > drop))) {
            drop = s;
          }
        }
        if (drop < 0) {
          return count;
        }
        add(drop, -1);
        count--;
      }
    }

    /** Whether one node of shape {@code s} can go with the rest still covering. */
    private boolean removable(int s, int count) {
      if (count - 1 < minNodes) {
        return false;
      }
      for (int j = 0; j < coverDims.length; j++) {
        if (sum[j] - shapes[s].cover[j] < target[j]) {
          return false;
        }
      }
      return true;
    }

    /**
     * One round of swaps: the single exchange of a taken node for a node of another shape that
     * gives the best irreducible covering set, if it is better than the current one. Candidates are
     * looked at by excess first (cheap to know), so that only the few of the least excess are
     * checked in full.
     */
    private boolean improve(int count) {
      final Rank current = rank(count);
      final int[] taken = Arrays.copyOf(chosen, chosenCount);
      Arrays.sort(taken);
      final List<long[]> swaps = new ArrayList<>();
      for (final int s : taken) {
        add(s, -1);
        for (int t = 0; t < shapes.length; t++) {
          if (t == s || counts[t] >= shapes[t].nodes.size()) {
            continue;
          }
          final long excess = excessWith(t);
          if (excess <= current.excess() && coveredWith(t, count)) {
            swaps.add(new long[] {excess, s, t});
          }
        }
        add(s, 1);
      }
      swaps.sort(
          Comparator.comparingLong((long[] swap) -> swap[0])
              .thenComparingLong(swap -> swap[1])
              .thenComparingLong(swap -> swap[2]));
      Rank bestSwap = current;
      int out = -1;
      int in = -1;
      for (final long[] swap : swaps) {
        if (out >= 0 && swap[0] > bestSwap.excess()) {
          break;
        }
        final int s = (int) swap[1];
        final int t = (int) swap[2];
        add(s, -1);
        if (fitsCap(shapes[t])) {
          add(t, 1);
          if (irreducibleNow(count)) {
            final Rank candidate = rank(count);
            if (candidate.compareTo(bestSwap) < 0) {
              bestSwap = candidate;
              out = s;
              in = t;
            }
          }
          add(t, -1);
        }
        add(s, 1);
      }
      if (out < 0) {
        return false;
      }
      add(out, -1);
      add(in, 1);
      return true;
    }

    /** Whether the set with one more node of shape {@code t} covers the target. */
    private boolean coveredWith(int t, int count) {
      if (count < minNodes) {
        return false;
      }
      for (int j = 0; j < coverDims.length; j++) {
        if (sum[j] + shapes[t].cover[j] < target[j]) {
          return false;
        }
      }
      return true;
    }

    private long excessWith(int t) {
      long excess = 0;
      for (int r = 0; r < rankDims.length; r++) {
        excess += Math.max(0, rankedSum[r] + shapes[t].ranked[r] - rankedTarget[r]);
      }
      return excess;
    }

    // ------------------------------------------------------------------------------------------
    // Shared

    private void add(int s, int nodes) {
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
      final Shape shape = shapes[s];
      for (int j = 0; j < coverDims.length; j++) {
        sum[j] += nodes * shape.cover[j];
      }
      for (int j = 0; j < capDims.length; j++) {
        capSum[j] += nodes * shape.capped[j];
      }
      for (int r = 0; r < rankDims.length; r++) {
        rankedSum[r] += nodes * shape.ranked[r];
      }
    }

    private boolean fitsCap(Shape shape) {
      for (int j = 0; j < capDims.length; j++) {
        if (saturatedAdd(capSum[j], shape.capped[j]) > cap[j]) {
          return false;
        }
      }
      return true;
    }

    private boolean covered(int count) {
      if (count < minNodes) {
        return false;
      }
      for (int j = 0; j < coverDims.length; j++) {
        if (sum[j] < target[j]) {
          return false;
        }
      }
      return true;
    }

    private boolean irreducibleNow(int count) {
      for (int i = 0; i < chosenCount; i++) {
        if (removable(chosen[i], count)) {
          return false;
        }
      }
      return true;
    }

    private long excess() {
      long excess = 0;
      for (int r = 0; r < rankDims.length; r++) {
        excess += Math.max(0, rankedSum[r] - rankedTarget[r]);
      }
      return excess;
    }

    private Rank rank(int count) {
      long used = 0;
      long idle = 0;
      long held = 0;
      for (int i = 0; i < chosenCount; i++) {
        final Shape shape = shapes[chosen[i]];
        final int c = counts[chosen[i]];
        used += shape.usedPrefix[c];
        idle += shape.idlePrefix[c];
        held += shape.heldPrefix[c];
      }
      return new Rank(excess(), used, count, idle, held);
    }

    private void consider(int count) {
      if (!irreducibleNow(count)) {
        return;
      }
      final Rank rank = rank(count);
      final int order = bestRank == null ? -1 : rank.compareTo(bestRank);
      if (order > 0) {
        return;
      }
      final List<String> names = order == 0 ? names(counts) : null;
      if (order < 0 || compareNames(names, bestNames()) < 0) {
        best = counts.clone();
        bestRank = rank;
        bestNames = names;
      }
    }

    /** The best set's names, built once it is needed to break a tie. */
    private List<String> bestNames() {
      if (bestNames == null) {
        bestNames = names(best);
      }
      return bestNames;
    }

    private List<String> names(int[] chosen) {
      final List<String> names = new ArrayList<>();
      for (int s = 0; s < shapes.length; s++) {
        for (int i = 0; i < chosen[s]; i++) {
          names.add(shapes[s].nodes.get(i).name());
        }
      }
      names.sort(null);
      return List.copyOf(names);
    }

    private static int compareNames(List<String> a, List<String> b) {
      for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
        final int c = a.get(i).compareTo(b.get(i));
        if (c != 0) {
          return c;
        }
      }
      return Integer.compare(a.size(), b.size());
    }

    private static long saturatedAdd(long a, long b) {
      return ResourceList.saturatedAdd(a, b);
    }

    private static long multiply(long a, long b) {
      if (a == 0 || b == 0) {
        return 0;
      }
      return Math.multiplyHigh(a, b) != 0 || a * b < 0 ? Long.MAX_VALUE : a * b;
    }
  }
}
