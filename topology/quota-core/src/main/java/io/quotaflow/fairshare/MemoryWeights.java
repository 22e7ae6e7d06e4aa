package io.quotaflow.fairshare;

import java.math.BigInteger;

/**
 * The effective weights of one split of surplus (docs/semantics.md section 6, rounds 3 and 4) with
 * fair share with memory on (section 24). A borrower's weight {@code w} is multiplied by its factor
 * {@code f = max(1, floor(2^16 * A / (A + B)))}, with {@code A} what the parent distributes in the
 * dimension and {@code B} the borrower's decayed average borrowed: {@code 2^16} (one) for a group
 * that borrowed nothing, a half for one that borrowed as much as the parent distributes, for ever.
 * When every factor of the split is one, the weights are left as they are (so the results are the
 * plain split's, bit for bit); otherwise each weight becomes {@code w * f}, or, when the largest
 * weight has more than 47 bits, {@code ceil(w * f / 2^s)} with {@code s} the bits beyond 47, so
 * that the products fit in 63 bits. A positive weight stays positive, a zero weight stays zero.
 */
public final class MemoryWeights {

  /** The fixed point of the factors: 16 fractional bits. */
  public static final int FACTOR_BITS = 16;

  /** The factor of a group that borrowed nothing. */
  public static final long ONE = 1L << FACTOR_BITS;

  private static final int WEIGHT_BITS = Long.SIZE - 1 - FACTOR_BITS;

  private MemoryWeights() {}

  /**
   * The factor of a borrower with decayed average borrowed {@code borrowed} in a split of {@code
   * available}: {@code max(1, floor(2^16 * available / (available + borrowed)))}, one when nothing
   * was borrowed. Exact for every amount.
   */
  public static long factor(long available, long borrowed) {
    if (available < 0 || borrowed < 0) {
      throw new IllegalArgumentException(
          "amounts must not be negative: " + available + ", " + borrowed);
    }
    if (borrowed == 0) {
      return ONE;
    }
    final long total = available + borrowed;
    if (total < 0) {
      // available + borrowed exceeds a long: the same quotient in exact arithmetic.
      return Math.max(
          1L,
          BigInteger.valueOf(available)
              .shiftLeft(FACTOR_BITS)
              .divide(BigInteger.valueOf(available).add(BigInteger.valueOf(borrowed)))
              .longValueExact());
    }
    return Math.max(1L, divide(available, total));
  }

  /** {@code floor(a * 2^16 / total)}, with {@code 0 <= a <= total}, {@code total > 0}. */
  private static long divide(long a, long total) {
    if (a >>> (Long.SIZE - 1 - FACTOR_BITS) == 0) {
      return (a << FACTOR_BITS) / total;
    }
    return BigInteger.valueOf(a)
        .shiftLeft(FACTOR_BITS)
        .divide(BigInteger.valueOf(total))
        .longValueExact();
  }

  /**
   * Turns the {@code n} weights of one split into effective weights, in place.
   *
   * @param factor each borrower's {@link #factor}
   * @return whether any weight changed (false when every factor is one)
   */
  public static boolean apply(int n, long[] weight, long[] factor) {
    boolean any = false;
    long largest = 0;
    for (int i = 0; i < n; i++) {
      any |= factor[i] != ONE;
      largest = Math.max(largest, weight[i]);
    }
    if (!any) {
      return false;
    }
    final int shift = shift(largest);
    for (int i = 0; i < n; i++) {
      weight[i] = effective(weight[i], factor[i], shift);
    }
    return true;
  }

  /**
   * The weight of {@link #apply} for one borrower: {@code ceil(w * f / 2^shift)}, saturated at
   * {@link Long#MAX_VALUE} (which {@link #apply} never reaches: it chooses the shift so that the
   * largest weight fits).
   */
  public static long effective(long weight, long factor, int shift) {
    final long high = Math.multiplyHigh(weight, factor);
    final long low = weight * factor;
    if (shift == 0) {
      return high != 0 || low < 0 ? Long.MAX_VALUE : low;
    }
    if (high >>> (shift - 1) != 0) {
      // The product is at least 2^(63 + shift).
      return Long.MAX_VALUE;
    }
    // The 128-bit product shifted right, rounded up: below 2^63 by the test above.
    final long shifted = (high << (Long.SIZE - shift)) | (low >>> shift);
    final boolean inexact = (low & ((1L << shift) - 1)) != 0;
    return inexact && shifted != Long.MAX_VALUE ? shifted + 1 : shifted;
  }

  /** The shift {@link #apply} uses for weights whose largest is {@code largest}. */
  public static int shift(long largest) {
    return Math.max(0, (Long.SIZE - Long.numberOfLeadingZeros(largest)) - WEIGHT_BITS);
  }
}
