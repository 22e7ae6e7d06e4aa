package io.quotaflow.quota;

import java.util.Optional;

/**
 * What a node reservation does besides locking its nodes (annotation {@code
 * quotaflow.io/reservation}, field {@code policy}).
 */
public enum ReservationPolicy {
  /** Locks nodes for the group's pods; pods of other groups already there stay. The default. */
  BEST_EFFORT("BestEffort"),
  /**
   * Locks nodes, and has the preemptible pods of other groups on them evicted after the revoke
   * delay, through the reclaim path.
   */
  GUARANTEED("Guaranteed");

  private final String label;

  ReservationPolicy(String label) {
    this.label = label;
  }

  /** The spelling in the annotation and in every report: {@code BestEffort}, {@code Guaranteed}. */
  public String label() {
    return label;
  }

  /**
   * The policy the annotation's text names: {@code BestEffort} or {@code Guaranteed}, and Volcano's
   * {@code Best-Effort} as an alias; empty for anything else.
   */
  public static Optional<ReservationPolicy> fromLabel(String text) {
    return switch (text) {
      case "BestEffort", "Best-Effort" -> Optional.of(BEST_EFFORT);
      case "Guaranteed" -> Optional.of(GUARANTEED);
      default -> Optional.empty();
    };
  }
}
