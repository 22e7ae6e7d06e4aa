package io.quotaflow.tree;

import io.quotaflow.quota.ResourceList;
import java.math.BigInteger;

/**
 * Exact integer helpers for the quota arithmetic: everything is a non-negative {@code long}, sums
 * saturate at {@link Long#MAX_VALUE}, and {@code a·b/c} is computed without intermediate overflow
 * (128-bit products through {@link Math#multiplyHigh}, {@link BigInteger} only when the product
 * does not fit a long).
 */
final class Arith {

  /** Stands for "no bound" in a dimension (a max that is absent, an unbounded parent). */
  static final long UNBOUNDED = Long.MAX_VALUE;

  private Arith() {}

  static long add(long a, long b) {
    return ResourceList.saturatedAdd(a, b);
  }

  /** {@code a·b}, saturated at {@link Long#MAX_VALUE}; both operands non-negative. */
  static long multiply(long a, long b) {
    if (Math.multiplyHigh(a, b) != 0) {
      return Long.MAX_VALUE;
    }
    final long product = a * b;
    return product < 0 ? Long.MAX_VALUE : product;
  }

  /** {@code floor(a·b/c)} exactly, for {@code a, b >= 0} and {@code c > 0}. */
  static long multiplyDivide(long a, long b, long c) {
    if (Math.multiplyHigh(a, b) == 0) {
      final long product = a * b;
      if (product >= 0) {
        return product / c;
      }
    }
    return BigInteger.valueOf(a)
        .multiply(BigInteger.valueOf(b))
        .divide(BigInteger.valueOf(c))
        .longValueExact();
  }
}
