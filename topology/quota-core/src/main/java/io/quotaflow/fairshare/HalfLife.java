package io.quotaflow.fairshare;

import java.math.BigInteger;
import java.time.Duration;

/**
 * The decay of past usage, one step at a time (docs/semantics.md section 24): after each step of
 * {@code stepMillis} the decayed usage is multiplied by {@code keep / 2^32}, the fixed-point value
 * of {@code 2^(-step / halfLife)}, rounded down, and the step's integral is added. The factor is
 * computed once, with {@link StrictMath#pow} (the same bits on every JVM), rounded to the nearest
 * integer and kept between 0 and {@code 2^32 - 1}, so that usage always decays.
 *
 * @param stepMillis the length of one step in milliseconds, positive
 * @param halfLifeMillis the half-life in milliseconds, positive
 * @param keep {@code round(2^32 * 2^(-stepMillis / halfLifeMillis))}, at most {@code 2^32 - 1}
 */
public record HalfLife(long stepMillis, long halfLifeMillis, long keep) {

  /** The fixed point of {@link #keep}: 32 fractional bits. */
  public static final int FRACTION_BITS = 32;

  private static final long ONE = 1L << FRACTION_BITS;
  private static final BigInteger BIG_ONE = BigInteger.ONE.shiftLeft(FRACTION_BITS);

  public HalfLife {
    if (stepMillis <= 0 || halfLifeMillis <= 0) {
      throw new IllegalArgumentException(
          "step and half-life must be positive: " + stepMillis + " ms, " + halfLifeMillis + " ms");
    }
    if (keep < 0 || keep >= ONE) {
      throw new IllegalArgumentException("keep must be in [0, 2^32): " + keep);
    }
  }

  /** The decay of {@code halfLife} applied at every {@code step}. */
  public static HalfLife of(Duration step, Duration halfLife) {
    final long stepMillis = step.toMillis();
    final long halfLifeMillis = halfLife.toMillis();
    if (stepMillis <= 0 || halfLifeMillis <= 0) {
      throw new IllegalArgumentException(
          "step and half-life must be at least one millisecond: " + step + ", " + halfLife);
    }
    final double factor = StrictMath.pow(2.0, -((double) stepMillis / (double) halfLifeMillis));
    final long keep = Math.min(ONE - 1, Math.max(0L, Math.round(factor * ONE)));
    return new HalfLife(stepMillis, halfLifeMillis, keep);
  }

  /**
   * The decayed usage one step later: {@code floor(decayed * keep / 2^32) + integral}.
   *
   * @param decayed the decayed usage before the step, in unit-milliseconds, non-negative
   * @param integral the usage integrated over the step, in unit-milliseconds, non-negative
   */
  public BigInteger fold(BigInteger decayed, BigInteger integral) {
    return decayed.multiply(BigInteger.valueOf(keep)).shiftRight(FRACTION_BITS).add(integral);
  }

  /**
   * The decayed usage as an average level, in the resource's units: {@code floor(decayed * (2^32 -
   * keep) / (2^32 * step))}, saturated at {@link Long#MAX_VALUE}. A level {@code b} held for ever
   * gives {@code b} (less the rounding of the folds); a group that never used anything gives 0.
   */
  public long average(BigInteger decayed) {
    final BigInteger average =
        decayed
            .multiply(BigInteger.valueOf(ONE - keep))
            .divide(BIG_ONE.multiply(BigInteger.valueOf(stepMillis)));
    return average.bitLength() < Long.SIZE ? average.longValue() : Long.MAX_VALUE;
  }
}
