package io.quotaflow.simulate;

import io.quotaflow.quota.Quantities;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Amounts in the units people read in a table: cpu in cores ({@code 0.5}, {@code 42.25}), byte
 * resources in Gi with two decimals at most ({@code 192Gi}, {@code 1.5Gi}), smaller ones in Mi or
 * Ki, below 1Ki in bytes; everything else as a plain number. For display only: the JSON output
 * carries exact canonical units. The admission plugin's web view shows amounts with it too, so the
 * page and the table never disagree.
 */
public final class HumanUnits {

  private static final BigDecimal GI = BigDecimal.valueOf(1L << 30);
  private static final BigDecimal MI = BigDecimal.valueOf(1L << 20);
  private static final BigDecimal KI = BigDecimal.valueOf(1L << 10);

  private HumanUnits() {}

  /** {@code amount} of {@code resource} (canonical units) as the table prints it. */
  public static String format(String resource, long amount) {
    if (Quantities.isMilliResource(resource)) {
      return plain(BigDecimal.valueOf(amount, 3));
    }
    if (Quantities.isByteResource(resource)) {
      final BigDecimal bytes = BigDecimal.valueOf(amount);
      if (amount == 0 || bytes.abs().compareTo(GI) >= 0) {
        return plain(bytes.divide(GI, 2, RoundingMode.HALF_UP)) + "Gi";
      }
      if (bytes.abs().compareTo(MI) >= 0) {
        return plain(bytes.divide(MI, 2, RoundingMode.HALF_UP)) + "Mi";
      }
      if (bytes.abs().compareTo(KI) >= 0) {
        return plain(bytes.divide(KI, 2, RoundingMode.HALF_UP)) + "Ki";
      }
      return Long.toString(amount);
    }
    return Long.toString(amount);
  }

  private static String plain(BigDecimal value) {
    return value.signum() == 0 ? "0" : value.stripTrailingZeros().toPlainString();
  }
}
