package io.quotaflow.bench.cluster;

/**
 * The size of a synthetic cluster: how many quota groups (the virtual root not counted) and the
 * seed that makes it reproducible. The tree is always four levels deep: first-level groups under
 * the root, departments, teams, leaves.
 *
 * @param groups number of quota groups, at least 4
 * @param seed the random seed; the same shape always yields the same cluster
 */
public record ClusterShape(int groups, long seed) {

  /** Levels below the root. */
  public static final int DEPTH = 4;

  /** The seed every benchmark uses. */
  public static final long DEFAULT_SEED = 20_251_122L;

  public ClusterShape {
    if (groups < DEPTH) {
      throw new IllegalArgumentException("need at least " + DEPTH + " groups, got " + groups);
    }
  }

  public static ClusterShape of(int groups) {
    return new ClusterShape(groups, DEFAULT_SEED);
  }

  /**
   * How many groups sit on each level (index 0 is the first level). The fan-out b solves b + b² +
   * b³ + b⁴ = groups, so the tree widens like a real organisation; the leaves take the rest.
   */
  public int[] levelSizes() {
    final double fanOut = fanOut(groups);
    final int[] sizes = new int[DEPTH];
    int assigned = 0;
    double width = 1;
    for (int level = 0; level < DEPTH - 1; level++) {
      width *= fanOut;
      // Every level needs at least as many groups as the one above it, and at least one.
      final int floor = level == 0 ? 1 : sizes[level - 1];
      sizes[level] = Math.max(floor, (int) Math.round(width));
      assigned += sizes[level];
    }
    sizes[DEPTH - 1] = groups - assigned;
    if (sizes[DEPTH - 1] < sizes[DEPTH - 2]) {
      throw new IllegalStateException("too few groups for a four-level tree: " + groups);
    }
    return sizes;
  }

  private static double fanOut(int groups) {
    double low = 1;
    double high = groups;
    for (int i = 0; i < 100; i++) {
      final double mid = (low + high) / 2;
      final double sum = mid + mid * mid + mid * mid * mid + mid * mid * mid * mid;
      if (sum < groups) {
        low = mid;
      } else {
        high = mid;
      }
    }
    return low;
  }
}
