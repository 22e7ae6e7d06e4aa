package io.quotaflow.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.ResourceList;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class ResourceHoursTest {

  @Test
  void cpuInCoreHoursMemoryInGibHoursOthersInUnitHours() {
    // 2 cores for 90 minutes; 16 GiB for 30 minutes; 8 GPUs for 15 minutes.
    assertThat(ResourceHours.of(ResourceList.CPU, BigInteger.valueOf(2_000L * 5_400_000)))
        .isEqualByComparingTo("3.000");
    assertThat(
            ResourceHours.of(
                ResourceList.MEMORY,
                BigInteger.valueOf(16L << 30).multiply(BigInteger.valueOf(1_800_000))))
        .isEqualByComparingTo("8.000");
    assertThat(ResourceHours.of("nvidia.com/gpu", BigInteger.valueOf(8L * 900_000)))
        .isEqualByComparingTo("2.000");
    assertThat(ResourceHours.unit("nvidia.com/gpu")).isEqualTo("nvidia.com/gpu-hours");
    assertThat(ResourceHours.unit(ResourceList.MEMORY)).isEqualTo("GiB-hours");
    // Every resource counted in bytes, as the web view's charts count them.
    assertThat(ResourceHours.unit("hugepages-2Mi")).isEqualTo("GiB-hours");
    assertThat(
            ResourceHours.of(
                "storage", BigInteger.valueOf(1L << 30).multiply(BigInteger.valueOf(3_600_000))))
        .isEqualByComparingTo("1.000");
  }

  @Test
  void roundsHalfToEvenAtTheThirdDecimal() {
    // 1 milli-core for 1.8 s = 0.0000005 core-hours: 0.000; 1 GPU for 1.8 s = 0.0005: 0.000 (even).
    assertThat(ResourceHours.of("nvidia.com/gpu", BigInteger.valueOf(1_800)))
        .isEqualTo(new BigDecimal("0.000"));
    assertThat(ResourceHours.of("nvidia.com/gpu", BigInteger.valueOf(5_400)))
        .isEqualTo(new BigDecimal("0.002"));
  }

  @Test
  void theShareOfTheGuaranteeUsedCountsOnlyUseWithinIt() {
    // min 4 cores for an hour; used 6 (2 borrowed) for half of it, 1 for the other half.
    final GroupLevels borrowing =
        new GroupLevels(
            ResourceList.of(ResourceList.CPU, 6_000),
            ResourceList.of(ResourceList.CPU, 6_000),
            ResourceList.of(ResourceList.CPU, 6_000),
            ResourceList.of(ResourceList.CPU, 4_000));
    final GroupLevels idle =
        new GroupLevels(
            ResourceList.of(ResourceList.CPU, 1_000),
            ResourceList.of(ResourceList.CPU, 1_000),
            ResourceList.of(ResourceList.CPU, 1_000),
            ResourceList.of(ResourceList.CPU, 4_000));
    final LevelIntegrals hour =
        LevelIntegrals.zero().plus(borrowing, 1_800_000).plus(idle, 1_800_000);

    // Within the guarantee: 4 cores then 1 core, of 4: (4 + 1) / 8 = 62.5 %.
    assertThat(ResourceHours.guaranteeUsedPercent(hour, ResourceList.CPU))
        .isEqualByComparingTo("62.5");
    assertThat(ResourceHours.guaranteeUsedPercent(LevelIntegrals.zero(), ResourceList.CPU))
        .isNull();
  }
}
