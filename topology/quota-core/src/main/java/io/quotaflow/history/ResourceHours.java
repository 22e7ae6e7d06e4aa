package io.quotaflow.history;

import io.quotaflow.quota.Quantities;
import io.quotaflow.quota.ResourceList;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * Integrals in the units people bill by (section 23, reports): cpu in core-hours, memory, storage
 * and hugepages in GiB-hours, every other resource (GPUs, pods) in unit-hours. Exact until the last
 * step: shown with three decimals, rounded half to even.
 */
public final class ResourceHours {

  private static final BigInteger MILLIS_PER_HOUR = BigInteger.valueOf(3_600_000L);
  private static final BigInteger MILLI = BigInteger.valueOf(1_000L);
  private static final BigInteger GIB = BigInteger.ONE.shiftLeft(30);

  private ResourceHours() {}

  /** The unit of {@code resource}'s hours: {@code core-hours}, {@code GiB-hours} or the name's. */
  public static String unit(String resource) {
    if (ResourceList.CPU.equals(resource)) {
      return "core-hours";
    }
    if (bytes(resource)) {
      return "GiB-hours";
    }
    return resource + "-hours";
  }

  /** {@code integral} (unit-milliseconds, canonical units) in {@link #unit}s, three decimals. */
  public static BigDecimal of(String resource, BigInteger integral) {
    BigInteger divisor = MILLIS_PER_HOUR;
    if (ResourceList.CPU.equals(resource)) {
      divisor = divisor.multiply(MILLI);
    } else if (bytes(resource)) {
      divisor = divisor.multiply(GIB);
    }
    return new BigDecimal(integral).divide(new BigDecimal(divisor), 3, RoundingMode.HALF_EVEN);
  }

  /**
   * How much of its guarantee the group used over the period, in percent with one decimal: the
   * integral of {@code min(used, min)}, which is {@code used - borrowed}, over the integral of
   * {@code min}; null when it had no guarantee.
   */
  public static BigDecimal guaranteeUsedPercent(LevelIntegrals integrals, String resource) {
    final BigInteger guaranteed = integrals.get(resource, HistoryMetric.MIN);
    if (guaranteed.signum() == 0) {
      return null;
    }
    final BigInteger within =
        integrals
            .get(resource, HistoryMetric.USED)
            .subtract(integrals.get(resource, HistoryMetric.BORROWED));
    return new BigDecimal(within.multiply(BigInteger.valueOf(100)))
        .divide(new BigDecimal(guaranteed), 1, RoundingMode.HALF_EVEN);
  }

  // As quantities are read and printed (memory, storage, hugepages): the web view's charts agree.
  private static boolean bytes(String resource) {
    return Quantities.isByteResource(resource);
  }
}
