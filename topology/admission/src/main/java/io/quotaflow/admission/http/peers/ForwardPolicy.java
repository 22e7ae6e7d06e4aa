package io.quotaflow.admission.http.peers;

import java.time.Duration;
import java.util.Objects;

/**
 * How requests are forwarded to the instance that holds a cluster (issue 40.10).
 *
 * @param timeout the whole of one forwarded request, connecting included: well under the webhooks'
 *     {@code timeoutSeconds}, so that the fallback still answers in time when the owner is gone
 * @param failuresToOpen failures in a row after which a peer is not asked (its breaker opens)
 * @param retryAfter how long an open breaker waits before one request probes the peer
 */
public record ForwardPolicy(Duration timeout, int failuresToOpen, Duration retryAfter) {

  /** The defaults of {@code admission.forward.*}. */
  public static final ForwardPolicy DEFAULTS =
      new ForwardPolicy(Duration.ofMillis(500), 3, Duration.ofSeconds(1));

  /**
   * {@code timeout} with the breaker's defaults, as {@code admission.forward.timeout} alone sets.
   */
  public static ForwardPolicy withTimeout(Duration timeout) {
    return new ForwardPolicy(timeout, DEFAULTS.failuresToOpen(), DEFAULTS.retryAfter());
  }

  /** Requires a positive timeout and retry, and at least one failure to open. */
  public ForwardPolicy {
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(retryAfter, "retryAfter");
    if (timeout.isZero() || timeout.isNegative()) {
      throw new IllegalArgumentException("the forward timeout must be positive: " + timeout);
    }
    if (failuresToOpen < 1) {
      throw new IllegalArgumentException("failuresToOpen must be at least 1: " + failuresToOpen);
    }
    if (retryAfter.isZero() || retryAfter.isNegative()) {
      throw new IllegalArgumentException("retryAfter must be positive: " + retryAfter);
    }
  }
}
