package io.quotaflow.tree;

import java.util.Arrays;

/**
 * Per-dimension, per-group sums kept exactly in 128 bits, so that pod events can be added and taken
 * away in any order without the error a saturating {@code long} would keep after it saturated once.
 * Reads saturate at {@link Long#MAX_VALUE}. Amounts are never negative.
 */
final class ExactSums {

  private long[][] high = new long[0][];
  private long[][] low = new long[0][];

  /** The saturated value of each sum, kept current so hot loops read one column. */
  private long[][] saturated = new long[0][];

  private int capacity;

  ExactSums(int capacity) {
    this.capacity = capacity;
  }

  void ensure(int dimensions, int newCapacity) {
    if (newCapacity > capacity) {
      for (int d = 0; d < high.length; d++) {
        high[d] = Arrays.copyOf(high[d], newCapacity);
        low[d] = Arrays.copyOf(low[d], newCapacity);
        saturated[d] = Arrays.copyOf(saturated[d], newCapacity);
      }
      capacity = newCapacity;
    }
    if (dimensions > high.length) {
      final int old = high.length;
      high = Arrays.copyOf(high, dimensions);
      low = Arrays.copyOf(low, dimensions);
      saturated = Arrays.copyOf(saturated, dimensions);
      for (int d = old; d < dimensions; d++) {
        high[d] = new long[capacity];
        low[d] = new long[capacity];
        saturated[d] = new long[capacity];
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
    saturated[dimension][index] = read(dimension, index);
  }

  void subtract(int dimension, int index, long amount) {
    final long before = low[dimension][index];
    final long after = before - amount;
    low[dimension][index] = after;
    if (Long.compareUnsigned(after, before) > 0) {
      high[dimension][index]--;
    }
    saturated[dimension][index] = read(dimension, index);
  }

  /** The sum, saturated at {@link Long#MAX_VALUE}. */
  long get(int dimension, int index) {
    return dimension >= saturated.length ? 0L : saturated[dimension][index];
  }

  /** The column of saturated sums of one dimension (read only). */
  long[] column(int dimension) {
    return saturated[dimension];
  }

  private long read(int dimension, int index) {
    final long h = high[dimension][index];
    final long l = low[dimension][index];
    if (h != 0 || l < 0) {
      return h < 0 ? 0L : Long.MAX_VALUE;
    }
    return l;
  }

  /** Moves every group's sums to its new slot. */
  void permute(SlotPermutation p) {
    for (int d = 0; d < high.length; d++) {
      p.move(high[d]);
      p.move(low[d]);
      p.move(saturated[d]);
    }
  }

  void clear(int index) {
    for (int d = 0; d < high.length; d++) {
      high[d][index] = 0;
      low[d][index] = 0;
      saturated[d][index] = 0;
    }
  }

  int dimensions() {
    return high.length;
  }
}
