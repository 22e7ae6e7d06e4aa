package io.quotaflow.tree;

/**
 * Per-dimension, per-group sums kept exactly in 128 bits, so that pod events can be added and taken
 * away in any order without the error a saturating {@code long} would keep after it saturated once.
 * Reads saturate at {@link Long#MAX_VALUE}. Amounts are never negative.
 */
final class ExactSums {

  private long[][] high = new long[0][];
  private long[][] low = new long[0][];
  private int capacity;

  ExactSums(int capacity) {
    this.capacity = capacity;
  }

  void ensure(int dimensions, int newCapacity) {
    if (newCapacity > capacity) {
      for (int d = 0; d < high.length; d++) {
        high[d] = java.util.Arrays.copyOf(high[d], newCapacity);
        low[d] = java.util.Arrays.copyOf(low[d], newCapacity);
      }
      capacity = newCapacity;
    }
    if (dimensions > high.length) {
      final int old = high.length;
      high = java.util.Arrays.copyOf(high, dimensions);
      low = java.util.Arrays.copyOf(low, dimensions);
      for (int d = old; d < dimensions; d++) {
        high[d] = new long[capacity];
        low[d] = new long[capacity];
      }
    }
  }

  void add(int dimension, int index, long amount) {
    final long before = low[dimension][index];
    final long after = before + amount;
    low[dimension][index] = after;
    if (Long.compareUnsigned(after, before) < 0) {
      high[dimension][index]++;
    }
  }

  void subtract(int dimension, int index, long amount) {
    final long before = low[dimension][index];
    final long after = before - amount;
    low[dimension][index] = after;
    if (Long.compareUnsigned(after, before) > 0) {
      high[dimension][index]--;
    }
  }

  /** The sum, saturated at {@link Long#MAX_VALUE}. */
  long get(int dimension, int index) {
    if (dimension >= high.length) {
      return 0L;
    }
    final long h = high[dimension][index];
    final long l = low[dimension][index];
    if (h != 0 || l < 0) {
      return h < 0 ? 0L : Long.MAX_VALUE;
    }
    return l;
  }

  void clear(int index) {
    for (int d = 0; d < high.length; d++) {
      high[d][index] = 0;
      low[d][index] = 0;
    }
  }

  int dimensions() {
    return high.length;
  }
}
