package io.quotaflow.status;

import io.quotaflow.quota.SpecialQuotaNamespaces;
import java.time.Duration;
import java.util.Objects;

/**
 * How the status writer writes.
 *
 * @param flushInterval how long updates are gathered before they are written; a burst of updates to
 *     one group within it becomes one write
 * @param requestsPerSecond API requests per second per cluster, on average
 * @param burst API requests per cluster allowed at once after a quiet period
 * @param resync how often the ElasticQuota informers replay their cache (each replay rechecks that
 *     every object shows the latest status)
 * @param groupId the consumer group
 * @param mode which annotations show the runtime, and whether {@code status.used} is written
 * @param conflicts when an object another writer keeps changing back is left alone for a while
 */
public record StatusSettings(
    Duration flushInterval,
    double requestsPerSecond,
    int burst,
    Duration resync,
    String groupId,
    StatusMode mode,
    ConflictSettings conflicts,
    SpecialQuotaNamespaces special) {

  /** The consumer group of writers started with the defaults. */
  public static final String DEFAULT_GROUP_ID = "quotaflow-status-writer";

  /** Validates the values. */
  public StatusSettings {
    Objects.requireNonNull(flushInterval, "flushInterval");
    Objects.requireNonNull(resync, "resync");
    Objects.requireNonNull(groupId, "groupId");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(conflicts, "conflicts");
    Objects.requireNonNull(special, "special");
    if (flushInterval.isNegative()
        || flushInterval.isZero()
        || resync.isNegative()
        || resync.isZero()) {
      throw new IllegalArgumentException(
          "intervals must be positive: " + flushInterval + ", " + resync);
    }
    if (!(requestsPerSecond > 0) || burst < 1) {
      throw new IllegalArgumentException(
          "need a positive rate and burst: " + requestsPerSecond + ", " + burst);
    }
    if (groupId.isBlank()) {
      throw new IllegalArgumentException("groupId must not be blank");
    }
  }

  /** Settings with the default conflict settings ({@link ConflictSettings#defaults()}). */
  public StatusSettings(
      final Duration flushInterval,
      final double requestsPerSecond,
      final int burst,
      final Duration resync,
      final String groupId,
      final StatusMode mode) {
    this(
        flushInterval,
        requestsPerSecond,
        burst,
        resync,
        groupId,
        mode,
        ConflictSettings.defaults(),
        SpecialQuotaNamespaces.DEFAULT);
  }

  /** Settings that write as Koordinator does ({@link StatusMode#KOORDINATOR}). */
  public StatusSettings(
      final Duration flushInterval,
      final double requestsPerSecond,
      final int burst,
      final Duration resync,
      final String groupId) {
    this(flushInterval, requestsPerSecond, burst, resync, groupId, StatusMode.KOORDINATOR);
  }

  /** Flush every second, 10 requests per second per cluster with bursts of 20, resync hourly. */
  public static StatusSettings defaults() {
    return new StatusSettings(
        Duration.ofSeconds(1), 10.0, 20, Duration.ofHours(1), DEFAULT_GROUP_ID);
  }

  /** These settings with another consumer group. */
  public StatusSettings withGroupId(final String groupId) {
    return new StatusSettings(
        flushInterval, requestsPerSecond, burst, resync, groupId, mode, conflicts, special);
  }

  /** These settings in another mode. */
  public StatusSettings withMode(final StatusMode mode) {
    return new StatusSettings(
        flushInterval, requestsPerSecond, burst, resync, groupId, mode, conflicts, special);
  }

  /**
   * These settings with other special-group namespaces: an ElasticQuota named like a special group
   * outside them stands for nothing, and its status is not written (the source's rule).
   */
  public StatusSettings withSpecialQuotaNamespaces(final SpecialQuotaNamespaces special) {
    return new StatusSettings(
        flushInterval, requestsPerSecond, burst, resync, groupId, mode, conflicts, special);
  }

  /** These settings with other conflict settings. */
  public StatusSettings withConflicts(final ConflictSettings conflicts) {
    return new StatusSettings(
        flushInterval, requestsPerSecond, burst, resync, groupId, mode, conflicts, special);
  }
}
