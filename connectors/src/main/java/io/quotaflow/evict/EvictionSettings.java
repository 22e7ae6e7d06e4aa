package io.quotaflow.evict;

import io.quotaflow.eviction.ProtectedPods;
import java.time.Duration;
import java.util.Objects;

/**
 * How the eviction executor acts.
 *
 * @param dryRun decide and report {@code DRY_RUN} instead of evicting
 * @param maxAttempts eviction requests per command while the API server cannot take them (5xx,
 *     throttling, no answer); a disruption budget's refusal is reported at once
 * @param backoff the wait after the first request the API server could not take; it doubles after
 *     each further one (a Retry-After replaces it)
 * @param maxBackoff the longest wait between two attempts
 * @param requestsPerSecond API requests per second per cluster, on average
 * @param burst API requests per cluster allowed at once after a quiet period
 * @param groupId the consumer group; executors for different sets of clusters need different ones
 * @param maxAge the oldest a command may be when read; an older one is reported {@code EXPIRED} and
 *     not carried out, as it was decided on a state of the cluster that may have passed
 * @param protectedPods pods never evicted whatever a command says; a command for one is reported
 *     {@code PROTECTED}
 */
public record EvictionSettings(
    boolean dryRun,
    int maxAttempts,
    Duration backoff,
    Duration maxBackoff,
    double requestsPerSecond,
    int burst,
    String groupId,
    Duration maxAge,
    ProtectedPods protectedPods) {

  /** The consumer group of executors started with the defaults. */
  public static final String DEFAULT_GROUP_ID = "quotaflow-eviction-executor";

  /** Validates the values. */
  public EvictionSettings {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
    }
    Objects.requireNonNull(backoff, "backoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    if (backoff.isNegative() || maxBackoff.compareTo(backoff) < 0) {
      throw new IllegalArgumentException(
          "need 0 <= backoff <= maxBackoff: " + backoff + ", " + maxBackoff);
    }
    if (!(requestsPerSecond > 0) || burst < 1) {
      throw new IllegalArgumentException(
          "need a positive rate and burst: " + requestsPerSecond + ", " + burst);
    }
    Objects.requireNonNull(groupId, "groupId");
    if (groupId.isBlank()) {
      throw new IllegalArgumentException("groupId must not be blank");
    }
    Objects.requireNonNull(maxAge, "maxAge");
    if (maxAge.isNegative() || maxAge.isZero()) {
      throw new IllegalArgumentException("maxAge must be positive: " + maxAge);
    }
    Objects.requireNonNull(protectedPods, "protectedPods");
  }

  /** Settings protecting the default pods ({@link ProtectedPods#DEFAULTS}). */
  public EvictionSettings(
      final boolean dryRun,
      final int maxAttempts,
      final Duration backoff,
      final Duration maxBackoff,
      final double requestsPerSecond,
      final int burst,
      final String groupId,
      final Duration maxAge) {
    this(
        dryRun,
        maxAttempts,
        backoff,
        maxBackoff,
        requestsPerSecond,
        burst,
        groupId,
        maxAge,
        ProtectedPods.DEFAULTS);
  }

  /**
   * Evict for real; 6 attempts waiting 1, 2, 4, 8 and 16 s between them; 5 requests per second per
   * cluster with bursts of 10; the default group; commands older than 10 minutes expire.
   */
  public static EvictionSettings defaults() {
    return new EvictionSettings(
        false,
        6,
        Duration.ofSeconds(1),
        Duration.ofSeconds(30),
        5.0,
        10,
        DEFAULT_GROUP_ID,
        Duration.ofMinutes(10));
  }

  /** These settings with dry-run on or off. */
  public EvictionSettings withDryRun(final boolean dryRun) {
    return new EvictionSettings(
        dryRun,
        maxAttempts,
        backoff,
        maxBackoff,
        requestsPerSecond,
        burst,
        groupId,
        maxAge,
        protectedPods);
  }

  /** These settings with another consumer group. */
  public EvictionSettings withGroupId(final String groupId) {
    return new EvictionSettings(
        dryRun,
        maxAttempts,
        backoff,
        maxBackoff,
        requestsPerSecond,
        burst,
        groupId,
        maxAge,
        protectedPods);
  }

  /** These settings with another maximum command age. */
  public EvictionSettings withMaxAge(final Duration maxAge) {
    return new EvictionSettings(
        dryRun,
        maxAttempts,
        backoff,
        maxBackoff,
        requestsPerSecond,
        burst,
        groupId,
        maxAge,
        protectedPods);
  }

  /** These settings protecting {@code protectedPods} instead. */
  public EvictionSettings withProtectedPods(final ProtectedPods protectedPods) {
    return new EvictionSettings(
        dryRun,
        maxAttempts,
        backoff,
        maxBackoff,
        requestsPerSecond,
        burst,
        groupId,
        maxAge,
        protectedPods);
  }

  /** The wait after the {@code attempt}-th refused attempt (1-based): doubling, capped. */
  public Duration backoffAfter(final int attempt) {
    if (attempt < 1) {
      throw new IllegalArgumentException("attempts count from 1: " + attempt);
    }
    Duration wait = backoff;
    for (int i = 1; i < attempt && wait.compareTo(maxBackoff) < 0; i++) {
      wait = wait.multipliedBy(2);
    }
    return wait.compareTo(maxBackoff) > 0 ? maxBackoff : wait;
  }
}
