package io.quotaflow.source;

import java.time.Duration;
import java.util.Objects;

/**
 * How the source watches and repairs.
 *
 * @param resync how often the informers replay their whole cache (each replay writes only changes)
 * @param reconcileInterval how often every key the topics hold is checked against the cluster, on
 *     top of the check after each (re)list
 * @param startTimeout how long reading the topics at start may take
 * @param watchProfiles whether ElasticQuotaProfiles are watched (off for clusters without the CRD)
 */
public record SourceSettings(
    Duration resync, Duration reconcileInterval, Duration startTimeout, boolean watchProfiles) {

  /** Settings that watch ElasticQuotaProfiles. */
  public SourceSettings(
      final Duration resync, final Duration reconcileInterval, final Duration startTimeout) {
    this(resync, reconcileInterval, startTimeout, true);
  }

  /** Validates the durations. */
  public SourceSettings {
    requirePositive(resync, "resync");
    requirePositive(reconcileInterval, "reconcileInterval");
    requirePositive(startTimeout, "startTimeout");
  }

  /** Resync every 10 minutes, reconcile every 5 minutes, a minute to read the topics at start. */
  public static SourceSettings defaults() {
    return new SourceSettings(Duration.ofMinutes(10), Duration.ofMinutes(5), Duration.ofMinutes(1));
  }

  private static void requirePositive(final Duration duration, final String name) {
    Objects.requireNonNull(duration, name);
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException(name + " must be positive: " + duration);
    }
  }
}
