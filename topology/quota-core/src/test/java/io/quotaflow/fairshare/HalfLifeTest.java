package io.quotaflow.fairshare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The decay of docs/semantics.md section 24, with its worked example. */
class HalfLifeTest {

  private static final long HOUR = 3_600_000L;

  @Test
  void aHalfLifeOfOneStepHalvesExactly() {
    assertThat(HalfLife.of(Duration.ofHours(1), Duration.ofHours(1)).keep()).isEqualTo(1L << 31);
  }

  @Test
  void aHalfLifeOfTwoStepsKeepsTheRoundedSquareRootOfAHalf() {
    // 2^32 / sqrt(2) = 3,037,000,499.97...
    assertThat(HalfLife.of(Duration.ofHours(1), Duration.ofHours(2)).keep())
        .isEqualTo(3_037_000_500L);
  }

  @Test
  void theDefaultsDecayALittleEveryMinute() {
    final HalfLife decay = HalfLife.of(Duration.ofMinutes(1), Duration.ofDays(7));
    // 2^32 * 2^(-1/10080) = 4,294,671,964.44...: 2^32 - 295,332 (rounded).
    assertThat(decay.keep()).isEqualTo(4_294_671_964L);
    assertThat(decay.keep()).isLessThan(1L << 32);
  }

  @Test
  void aHalfLifeFarShorterThanTheStepForgetsEverythingAtOnce() {
    final HalfLife decay = HalfLife.of(Duration.ofDays(1), Duration.ofMillis(1));
    assertThat(decay.keep()).isZero();
    assertThat(decay.fold(BigInteger.TEN.pow(30), BigInteger.ONE)).isEqualTo(BigInteger.ONE);
  }

  @Test
  void aHalfLifeFarLongerThanTheStepStillDecays() {
    assertThat(HalfLife.of(Duration.ofMillis(1), Duration.ofDays(100_000)).keep())
        .isEqualTo((1L << 32) - 1);
  }

  /**
   * The worked example of section 24: step 1 h, half-life 1 h; team-a borrows 8 GPUs for one hour,
   * then nothing.
   */
  @Test
  void workedExampleOneHourOfEightBorrowedGpusAveragesFourThenTwoThenOne() {
    final HalfLife decay = HalfLife.of(Duration.ofHours(1), Duration.ofHours(1));
    final BigInteger hour = BigInteger.valueOf(8 * HOUR);
    final BigInteger first = decay.fold(BigInteger.ZERO, hour);
    assertThat(first).isEqualTo(BigInteger.valueOf(28_800_000L));
    assertThat(decay.average(first)).isEqualTo(4);
    final BigInteger second = decay.fold(first, BigInteger.ZERO);
    assertThat(second).isEqualTo(BigInteger.valueOf(14_400_000L));
    assertThat(decay.average(second)).isEqualTo(2);
    assertThat(decay.average(decay.fold(second, BigInteger.ZERO))).isEqualTo(1);
  }

  @Test
  void aLevelHeldForEverAveragesToItself() {
    final HalfLife decay = HalfLife.of(Duration.ofMinutes(1), Duration.ofMinutes(10));
    final BigInteger minute = BigInteger.valueOf(6_000L * 60_000L);
    BigInteger decayed = BigInteger.ZERO;
    for (int i = 0; i < 2_000; i++) {
      decayed = decay.fold(decayed, minute);
    }
    // Each fold rounds down by less than one unit-millisecond: the average loses at most one unit.
    assertThat(decay.average(decayed)).isBetween(5_999L, 6_000L);
  }

  @Test
  void anAverageBeyondALongSaturates() {
    final HalfLife decay = HalfLife.of(Duration.ofMillis(1), Duration.ofMillis(1));
    assertThat(decay.average(BigInteger.TEN.pow(40))).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void aZeroStepIsRefused() {
    assertThatThrownBy(() -> HalfLife.of(Duration.ZERO, Duration.ofDays(7)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one millisecond");
  }
}
