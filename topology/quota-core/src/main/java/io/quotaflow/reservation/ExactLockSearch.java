package io.quotaflow.reservation;

import io.quotaflow.quota.ResourceList;
import java.util.List;
import java.util.Optional;

/**
 * The exact search of {@link LockChooser}: a depth-first branch and bound over how many nodes of
 * each shape to take, pruned where the shapes left cannot cover the target or reach the node count,
 * and where the excess already exceeds the best set's. Every irreducible covering set it reaches is
 * ranked; the best wins, ties broken by the smallest list of names.
 */
final class ExactLockSearch {

  /** Thrown when the search runs out of steps. */
  static final class BudgetExhausted extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BudgetExhausted() {
      super(null, null, false, false);
    }
  }

  private final ShapedRequest request;
  private final NodeShape[] shapes;
  private final ShapeSelection set;
  private final long budget;
  private final long[][] suffix;
  private final long[] suffixCount;
  private long steps;
  private int[] best;
  private LockRank bestRank;
  private List<String> bestNames;

  private ExactLockSearch(ShapedRequest request, long budget) {
    this.request = request;
    this.shapes = request.shapes;
    this.set = new ShapeSelection(request);
    this.budget = budget;
    // What the shapes from s on can add at most, per target dimension and in nodes.
    suffix = new long[shapes.length + 1][request.coverDims.length];
    suffixCount = new long[shapes.length + 1];
    for (int s = shapes.length - 1; s >= 0; s--) {
      for (int j = 0; j < request.coverDims.length; j++) {
        suffix[s][j] =
            ResourceList.saturatedAdd(
                suffix[s + 1][j], multiply(shapes[s].bound, shapes[s].cover[j]));
      }
      suffixCount[s] = suffixCount[s + 1] + shapes[s].bound;
    }
  }

  /**
   * The best set's names, or empty when no set covers the target.
   *
   * @throws BudgetExhausted when the search needs more than {@code budget} steps
   */
  static Optional<List<String>> run(ShapedRequest request, long budget) {
    final ExactLockSearch search = new ExactLockSearch(request, budget);
    search.dfs(0, 0);
    return search.best == null ? Optional.empty() : Optional.of(request.names(search.best));
  }

  private void dfs(int s, int count) {
    if (++steps > budget) {
      throw new BudgetExhausted();
    }
    if (set.covered(count)) {
      consider(count);
      return;
    }
    if (s == shapes.length) {
      return;
    }
    for (int j = 0; j < request.coverDims.length; j++) {
      if (ResourceList.saturatedAdd(set.sum[j], suffix[s][j]) < request.target[j]) {
        return;
      }
    }
    if (count + suffixCount[s] < request.minNodes) {
      return;
    }
    if (bestRank != null && set.excess() > bestRank.excess()) {
      return;
    }
    final NodeShape shape = shapes[s];
    int taken = 0;
    dfs(s + 1, count);
    while (taken < shape.bound && !set.covered(count + taken)) {
      if (!set.fitsCap(shape)) {
        break;
      }
      set.add(s, 1);
      taken++;
      dfs(s + 1, count + taken);
    }
    set.add(s, -taken);
  }

  private void consider(int count) {
    if (!set.irreducible(count)) {
      return;
    }
    final LockRank rank = set.rank(count);
    final int order = bestRank == null ? -1 : rank.compareTo(bestRank);
    if (order > 0) {
      return;
    }
    final List<String> names = order == 0 ? request.names(set.counts) : null;
    if (order < 0 || compareNames(names, bestNames()) < 0) {
      best = set.counts.clone();
      bestRank = rank;
      bestNames = names;
    }
  }

  /** The best set's names, built once it is needed to break a tie. */
  private List<String> bestNames() {
    if (bestNames == null) {
      bestNames = request.names(best);
    }
    return bestNames;
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

  private static long multiply(long a, long b) {
    if (a == 0 || b == 0) {
      return 0;
    }
    return Math.multiplyHigh(a, b) != 0 || a * b < 0 ? Long.MAX_VALUE : a * b;
  }
}
