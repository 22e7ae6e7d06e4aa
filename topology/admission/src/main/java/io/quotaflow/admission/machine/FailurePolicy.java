package io.quotaflow.admission.machine;

import java.util.Locale;

/**
 * How a webhook or the scheduler filter answers when it cannot decide: the cluster's state is
 * moving between instances (a rebalance), its owner cannot be reached, or something unexpected
 * failed.
 */
public enum FailurePolicy {
  /** Allow, with a warning that the quota was not checked. */
  FAIL_OPEN,
  /** Deny, with a message saying why nothing could be checked. */
  FAIL_CLOSED;

  /** The name as configured: {@code fail-open} or {@code fail-closed}. */
  public String id() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** The policy named {@code text} ({@code fail-open} or {@code fail-closed}). */
  public static FailurePolicy of(String text) {
    for (final FailurePolicy policy : values()) {
      if (policy.id().equalsIgnoreCase(text.trim())) {
        return policy;
      }
    }
    throw new IllegalArgumentException("expected fail-open or fail-closed");
  }
}
