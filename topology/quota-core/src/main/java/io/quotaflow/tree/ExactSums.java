package io.quotaflow.tree;

import java.util.Arrays;

/**
 * Per-dimension, per-group sums kept exactly in 128 bits, so that pod events can be added and taken
 * away in any order without the error a saturating {@code long} would keep after it saturated once.
 * Reads saturate at {@link Long#MAX_VALUE}. Amounts are never negative.
 *
 * <p>A dimension whose sums all fit a non-negative {@code long} (every dimension of a real cluster)
 * keeps one array: the low words are the saturated values. Its high words and a separate column of
 * saturated values are allocated the first time one of its sums leaves that range.
 */
final class ExactSums {

  private long[][] high = new long[0][];
  private long[][] low = new long[0][];

  /**
   * The saturated value of each sum, kept current so hot loops read one column: the same array as
   * {@code low} while the dimension has no {@code high} words.
   */
  private long[][] saturated = new long[0][];

  private int capacity;

  /** Whether any sum was ever changed: until then every one is zero. */
  private boolean touched;

  ExactSums(int capacity) {
    this.capacity = capacity;
  }

  void ensure(int dimensions, int newCapacity) {
    if (newCapacity > capacity) {
      for (int d = 0; d < low.length; d++) {
        final boolean shared = high[d] == null;
        low[d] = Arrays.copyOf(low[d], newCapacity);
        if (shared) {
          saturated[d] = low[d];
        } else {
          high[d] = Arrays.copyOf(high[d], newCapacity);
          saturated[d] = Arrays.copyOf(saturated[d], newCapacity);
        }
      }
      capacity = newCapacity;
    }
    if (dimensions > low.length) {
      final int old = low.length;
      high = Arrays.copyOf(high, dimensions);
      low = Arrays.copyOf(low, dimensions);
      saturated = Arrays.copyOf(saturated, dimensions);
      for (int d = old; d < dimensions; d++) {
        low[d] = new long[capacity];
        saturated[d] = low[d];
      }
    }
  }

  void add(int dimension, int index, long amount) {
    touched = true;
    if (high[dimension] == null) {
      final long after = low[dimension][index] + amount;
      if (amount >= 0 && after >= 0) {
        low[dimension][index] = after;
        return;
      }
      split(dimension);
    }
    final long before = low[dimension][index];
    final long after = before + amount;
    low[dimension][index] = after;
    if (Long.compareUnsigned(after, before) < 0) {
      high[dimension][index]++;
    }
    saturated[dimension][index] = read(dimension, index);
  }

  void subtract(int dimension, int index, long amount) {
    touched = true;
    if (high[dimension] == null) {
      final long after = low[dimension][index] - amount;
      if (amount >= 0 && after >= 0) {
        low[dimension][index] = after;
        return;
      }
      split(dimension);
    }
    final long before = low[dimension][index];
    final long after = before - amount;
    low[dimension][index] = after;
    if (Long.compareUnsigned(after, before) > 0) {
      high[dimension][index]--;
    }
    saturated[dimension][index] = read(dimension, index);
  }

  /** Gives a dimension its high words and its own saturated column (every sum so far fits). */
  private void split(int dimension) {
    high[dimension] = new long[capacity];
    saturated[dimension] = low[dimension].clone();
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
    if (!touched) {
      return;
    }
    for (int d = 0; d < low.length; d++) {
      p.move(low[d]);
      if (high[d] != null) {
        p.move(high[d]);
        p.move(saturated[d]);
      }
    }
  }

  void clear(int index) {
    for (int d = 0; d < low.length; d++) {
      low[d][index] = 0;
      if (high[d] != null) {
        high[d][index] = 0;
        saturated[d][index] = 0;
      }
    }
  }

  int dimensions() {
    return low.length;
  }
}
