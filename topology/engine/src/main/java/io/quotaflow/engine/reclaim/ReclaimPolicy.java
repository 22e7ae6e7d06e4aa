package io.quotaflow.engine.reclaim;

import java.time.Duration;
import java.util.Objects;

/**
 * When the reclaimer evicts and retries.
 *
 * @param revokeDelay how long a group stays over-used before its pods are evicted
 * @param retryBackoff how long after a result other than EVICTED a pod may be commanded again
 * @param maxAttempts how many commands one pod gets at most (at least 1)
 * @param resultTimeout how long after its issue a command without a result is given up on: not an
 *     attempt, the pod decided again
 */
public record ReclaimPolicy(
    Duration revokeDelay, Duration retryBackoff, int maxAttempts, Duration resultTimeout) {
  /** Checks the values. */
  public ReclaimPolicy {
    Objects.requireNonNull(revokeDelay, "revokeDelay");
    Objects.requireNonNull(retryBackoff, "retryBackoff");
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
    }
    Objects.requireNonNull(resultTimeout, "resultTimeout");
    if (resultTimeout.isNegative() || resultTimeout.isZero()) {
      throw new IllegalArgumentException("resultTimeout must be positive: " + resultTimeout);
    }
  }
}
