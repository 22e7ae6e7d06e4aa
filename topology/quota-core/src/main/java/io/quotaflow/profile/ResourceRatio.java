package io.quotaflow.profile;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * An ElasticQuotaProfile's {@code resourceRatio}: the share of its nodes' allocatable its tree may
 * hand out, an exact decimal in (0, 1]. Applied to each dimension of the summed allocatable and
 * rounded down to the dimension's unit (milli-cores, bytes, devices), so a tree never promises more
 * than its nodes hold.
 *
 * @param value the ratio as written, exactly
 */
public record ResourceRatio(BigDecimal value) {

  /** No ratio written: the whole allocatable. */
  public static final ResourceRatio ONE = new ResourceRatio(BigDecimal.ONE);

  public ResourceRatio {
    Objects.requireNonNull(value, "value");
  }

  /** Whether the ratio is in (0, 1], the range Koordinator documents. */
  public boolean inRange() {
    return value.signum() > 0 && value.compareTo(BigDecimal.ONE) <= 0;
  }

  /** {@code floor(amount × ratio)}, exactly; {@code amount} is non-negative. */
  public long apply(long amount) {
    if (value.compareTo(BigDecimal.ONE) == 0) {
      return amount;
    }
    return BigDecimal.valueOf(amount).multiply(value).setScale(0, RoundingMode.FLOOR).longValue();
  }

  @Override
  public String toString() {
    return value.toPlainString();
  }
}
