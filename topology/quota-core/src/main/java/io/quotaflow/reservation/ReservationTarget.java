package io.quotaflow.reservation;

import io.quotaflow.quota.ReservationPercentage;
import io.quotaflow.quota.ReservationSpec;
import io.quotaflow.quota.ResourceList;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What a reservation's locked nodes must cover: in every dimension of {@link #amounts}, their
 * allocatable summed; and at least {@link #minNodes} nodes.
 *
 * <p>{@code resource} gives amounts; {@code percentage} gives {@code floor(nodes × value)} nodes
 * and, in each of its dimensions, {@code floor(cluster total × value)}. With both, the larger
 * amount wins per dimension (the design's "the one with more reserved resources", made exact where
 * neither is larger in every dimension). Both floors are exact (decimal arithmetic, no binary
 * fraction); they are the only rounding of reservations.
 *
 * @param amounts per dimension, canonical units; its dimensions are the ones the lock must cover
 * @param minNodes the fewest nodes the lock holds
 */
public record ReservationTarget(ResourceList amounts, int minNodes) {

  public ReservationTarget {
    Objects.requireNonNull(amounts, "amounts");
    if (minNodes < 0) {
      throw new IllegalArgumentException("minNodes must not be negative: " + minNodes);
    }
  }

  /**
   * The target of {@code spec} in a cluster of {@code nodes} counted nodes whose total is {@code
   * clusterTotal}. A percentage value outside [0, 1] is clamped here; the rules report it.
   */
  public static ReservationTarget of(ReservationSpec spec, ResourceList clusterTotal, int nodes) {
    final Map<String, Long> amounts =
        new TreeMap<>(spec.resource().orElse(ResourceList.empty()).asMap());
    int minNodes = 0;
    if (spec.percentage().isPresent()) {
      final ReservationPercentage percentage = spec.percentage().get();
      final BigDecimal share = clamp(percentage.value());
      minNodes = (int) floor(nodes, share);
      for (final String dimension : percentage.dimensions()) {
        amounts.merge(dimension, floor(clusterTotal.get(dimension), share), Math::max);
      }
    }
    return new ReservationTarget(ResourceList.of(amounts), minNodes);
  }

  /** Whether the lock may be empty: nothing to cover and no node to hold. */
  public boolean isEmpty() {
    return minNodes == 0 && amounts.asMap().values().stream().allMatch(amount -> amount <= 0);
  }

  private static BigDecimal clamp(BigDecimal value) {
    return value.max(BigDecimal.ZERO).min(BigDecimal.ONE);
  }

  /** {@code floor(amount × share)} exactly, for {@code share} in [0, 1]. */
  static long floor(long amount, BigDecimal share) {
    return BigDecimal.valueOf(amount)
        .multiply(share)
        .setScale(0, RoundingMode.FLOOR)
        .longValueExact();
  }
}
