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
    final long high = Math.multiplyHigh(a, b);
    if (high < c) {
      final long quotient = divide128(high, a * b, c);
      if (quotient >= 0) {
        return quotient;
      }
    }
    return BigInteger.valueOf(a)
        .multiply(BigInteger.valueOf(b))
        .divide(BigInteger.valueOf(c))
        .longValueExact();
  }

  /**
   * {@code floor((high·2⁶⁴ + low) / divisor)} for {@code 0 <= high < divisor} ({@code low}
   * unsigned), given an {@code estimate} of it: the estimate is checked by its exact 128-bit
   * remainder and corrected by one, or replaced by the long division when it is further off. Exact
   * whatever the estimate; fast when it comes from floating point (one multiplication instead of a
   * division per quotient).
   */
  static long divide128(long high, long low, long divisor, long estimate) {
    // remainder = a·b - estimate·divisor in 128 bits.
    final long productLow = estimate * divisor;
    final long productHigh = Math.multiplyHigh(estimate, divisor);
    final long restLow = low - productLow;
    final long restHigh = high - productHigh - (Long.compareUnsigned(low, productLow) < 0 ? 1 : 0);
    if (restHigh == 0 && restLow >= 0) {
      if (restLow < divisor) {
        return estimate;
      }
      if (restLow - divisor < divisor) {
        return estimate + 1;
      }
    } else if (restHigh == -1 && restLow < 0 && restLow + divisor >= 0) {
      return estimate - 1;
    }
    return divide128(high, low, divisor);
  }

  /**
   * {@code floor((high·2⁶⁴ + low) / divisor)} for {@code 0 <= high < divisor} ({@code low}
   * unsigned): the quotient fits 64 unsigned bits. Long division in two 32-bit digits (Knuth's
   * algorithm D for a two-digit divisor, after Hacker's Delight's {@code divlu}).
   */
  static long divide128(long high, long low, long divisor) {
    final long base = 1L << 32;
    final int shift = Long.numberOfLeadingZeros(divisor);
    final long v = divisor << shift;
    final long vHigh = v >>> 32;
    final long vLow = v & 0xFFFFFFFFL;
    final long uHigh = shift == 0 ? high : (high << shift) | (low >>> (64 - shift));
    final long uLow = low << shift;
    final long uLow1 = uLow >>> 32;
    final long uLow0 = uLow & 0xFFFFFFFFL;

    long q1 = Long.divideUnsigned(uHigh, vHigh);
    long rest = uHigh - q1 * vHigh;
    while (Long.compareUnsigned(q1, base) >= 0
        || Long.compareUnsigned(q1 * vLow, rest * base + uLow1) > 0) {
      q1--;
      rest += vHigh;
      if (Long.compareUnsigned(rest, base) >= 0) {
        break;
      }
    }
    final long middle = uHigh * base + uLow1 - q1 * v;
    long q0 = Long.divideUnsigned(middle, vHigh);
    rest = middle - q0 * vHigh;
    while (Long.compareUnsigned(q0, base) >= 0
        || Long.compareUnsigned(q0 * vLow, rest * base + uLow0) > 0) {
      q0--;
      rest += vHigh;
      if (Long.compareUnsigned(rest, base) >= 0) {
        break;
      }
    }
    return q1 * base + q0;
  }
}
