package io.quotaflow.fairshare;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The factors and effective weights of docs/semantics.md section 24. */
class MemoryWeightsTest {

  @Test
  void noPastUseIsAFactorOfOne() {
    assertThat(MemoryWeights.factor(12, 0)).isEqualTo(MemoryWeights.ONE);
    assertThat(MemoryWeights.factor(0, 0)).isEqualTo(MemoryWeights.ONE);
  }

  @Test
  void workedExampleFactors() {
    // 2^16 * 12 / (12 + 4) = 49,152 exactly: three quarters.
    assertThat(MemoryWeights.factor(12, 4)).isEqualTo(49_152);
    // 2^16 * 12 / 14 = 56,173.7...: rounded down.
    assertThat(MemoryWeights.factor(12, 2)).isEqualTo(56_173);
    // Borrowing as much as the parent distributes halves the weight.
    assertThat(MemoryWeights.factor(12, 12)).isEqualTo(MemoryWeights.ONE / 2);
  }

  @Test
  void theFactorNeverReachesZero() {
    assertThat(MemoryWeights.factor(0, 5)).isEqualTo(1);
    assertThat(MemoryWeights.factor(1, Long.MAX_VALUE)).isEqualTo(1);
  }

  @Test
  void hugeAmountsDoNotOverflow() {
    assertThat(MemoryWeights.factor(Long.MAX_VALUE, Long.MAX_VALUE))
        .isEqualTo(MemoryWeights.ONE / 2);
    assertThat(MemoryWeights.factor(Long.MAX_VALUE, 1)).isEqualTo(MemoryWeights.ONE - 1);
  }

  @Test
  void factorsOfOneLeaveTheWeightsAsTheyAre() {
    final long[] weight = {3, 0, 7};
    assertThat(MemoryWeights.apply(3, weight, new long[] {65_536, 65_536, 65_536})).isFalse();
    assertThat(weight).containsExactly(3, 0, 7);
  }

  @Test
  void smallWeightsAreMultipliedExactly() {
    final long[] weight = {12, 12, 0};
    assertThat(MemoryWeights.apply(3, weight, new long[] {49_152, 65_536, 1})).isTrue();
    assertThat(weight).containsExactly(589_824, 786_432, 0);
  }

  @Test
  void weightsOfMoreThan47BitsAreShiftedAndRoundedUp() {
    final long big = 1L << 50;
    final long[] weight = {big, 1, big + 1};
    MemoryWeights.apply(3, weight, new long[] {65_536, 65_536, 3});
    // shift = 51 - 47 = 4
    assertThat(weight).containsExactly(big << 12, 4096, ((big + 1) * 3 + 15) >> 4);
    assertThat(weight[1]).isPositive();
  }

  @Test
  void theLargestWeightStillFits() {
    final long[] weight = {Long.MAX_VALUE, 1};
    MemoryWeights.apply(2, weight, new long[] {65_536, 2});
    assertThat(weight[0]).isEqualTo(Long.MAX_VALUE);
    assertThat(weight[1]).isEqualTo(1);
  }
}
