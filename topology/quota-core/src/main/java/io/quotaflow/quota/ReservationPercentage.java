package io.quotaflow.quota;

import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;

/**
 * The {@code percentage} of a node reservation: a share of the cluster's nodes, and of the cluster
 * total in the named dimensions. Held as the exact decimal written in the annotation; every amount
 * derived from it is rounded down (see {@code ReservationTarget}).
 *
 * @param value the share, e.g. {@code 0.2}; valid in [0, 1] (checked by the reservation rules, so
 *     that an out-of-range value is reported, not lost)
 * @param dimensions the resources whose cluster total the share also applies to, in the order
 *     written; empty: the share counts nodes only
 */
public record ReservationPercentage(BigDecimal value, List<String> dimensions) {

  public ReservationPercentage {
    Objects.requireNonNull(value, "value");
    dimensions = List.copyOf(dimensions);
  }
}
