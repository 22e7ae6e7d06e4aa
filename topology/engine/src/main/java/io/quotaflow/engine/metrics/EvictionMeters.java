package io.quotaflow.engine.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The meters of reclaim's eviction commands, by cluster: commands issued and retried (by reason),
 * the outcomes that do not count as attempts (API server unreachable, stale, expired, unanswered),
 * and pods whose attempts ran out. Thread-safe: stream threads share one instance ({@link
 * EngineMetrics#evictions()}).
 */
public final class EvictionMeters {
  /**
   * Counter of eviction commands issued, retries included, tags {@code cluster} and {@code reason}
   * (the command's code: {@code reclaimed-after-delay} or {@code node-reserved}).
   */
  public static final String EVICTIONS = "quotaflow.engine.evictions.issued";

  /**
   * Counter of eviction commands that found their cluster's API server unreachable, tag {@code
   * cluster}: they do not count as attempts, and the pod is commanded again.
   */
  public static final String EVICTIONS_UNREACHABLE = "quotaflow.engine.evictions.unreachable";

  /**
   * Counter of eviction commands the executor refused because the engine's inputs for the cluster
   * may have missed changes since the decision (result {@code STALE}), tag {@code cluster}: not
   * counted as attempts; the pod is commanded again only if it is still chosen.
   */
  public static final String EVICTIONS_STALE = "quotaflow.engine.evictions.stale";

  /**
   * Counter of eviction commands the executor did not carry out because they were older than its
   * {@code eviction.max.age} when read (result {@code EXPIRED}), tag {@code cluster}: not counted
   * as attempts (issue 40).
   */
  public static final String EVICTIONS_EXPIRED = "quotaflow.engine.evictions.expired";

  /**
   * Counter of eviction commands that got no result within {@code revoke.result.timeout}, tag
   * {@code cluster}: given up on the engine's side, not counted as attempts, the pod decided again
   * (issue 40).
   */
  public static final String EVICTIONS_UNANSWERED = "quotaflow.engine.evictions.unanswered";

  /**
   * Counter of eviction commands that retry a pod whose earlier eviction did not happen, tags
   * {@code cluster} and {@code reason}, as {@link #EVICTIONS}: the difference of the two counts
   * first attempts.
   */
  public static final String EVICTIONS_RETRIED = "quotaflow.engine.evictions.retried";

  /**
   * Counter of pods whose last allowed command ({@code revoke.max.attempts}) did not evict them,
   * tag {@code cluster}: they are not commanded again.
   */
  public static final String EVICTIONS_EXHAUSTED = "quotaflow.engine.evictions.exhausted";

  private final MeterRegistry registry;
  private final Map<ClusterReason, Counter> issuedByReason = new ConcurrentHashMap<>();
  private final Map<ClusterReason, Counter> retriedByReason = new ConcurrentHashMap<>();
  private final Map<String, Counter> exhaustedByCluster = new ConcurrentHashMap<>();
  private final Map<String, Counter> unreachableByCluster = new ConcurrentHashMap<>();
  private final Map<String, Counter> staleByCluster = new ConcurrentHashMap<>();
  private final Map<String, Counter> expiredByCluster = new ConcurrentHashMap<>();
  private final Map<String, Counter> unansweredByCluster = new ConcurrentHashMap<>();

  EvictionMeters(final MeterRegistry registry) {
    this.registry = registry;
  }

  /** A command for a pod of {@code cluster} found the cluster's API server unreachable. */
  public void unreachable(final String cluster) {
    unreachableByCluster
        .computeIfAbsent(
            cluster,
            c ->
                Counter.builder(EVICTIONS_UNREACHABLE)
                    .description(
                        "Eviction commands that found the cluster's API server unreachable (not"
                            + " counted as attempts)")
                    .tag("cluster", c)
                    .register(registry))
        .increment();
  }

  /** A command for a pod of {@code cluster} was refused: decided on possibly incomplete inputs. */
  public void stale(final String cluster) {
    staleByCluster
        .computeIfAbsent(
            cluster,
            c ->
                Counter.builder(EVICTIONS_STALE)
                    .description(
                        "Eviction commands refused as decided on possibly incomplete inputs (not"
                            + " counted as attempts)")
                    .tag("cluster", c)
                    .register(registry))
        .increment();
  }

  /** A command for a pod of {@code cluster} expired before the executor read it. */
  public void expired(final String cluster) {
    expiredByCluster
        .computeIfAbsent(
            cluster,
            c ->
                Counter.builder(EVICTIONS_EXPIRED)
                    .description(
                        "Eviction commands the executor read too late to carry out (not counted"
                            + " as attempts)")
                    .tag("cluster", c)
                    .register(registry))
        .increment();
  }

  /** A command for a pod of {@code cluster} got no result in time: given up on. */
  public void unanswered(final String cluster) {
    unansweredByCluster
        .computeIfAbsent(
            cluster,
            c ->
                Counter.builder(EVICTIONS_UNANSWERED)
                    .description(
                        "Eviction commands without a result within revoke.result.timeout (not"
                            + " counted as attempts)")
                    .tag("cluster", c)
                    .register(registry))
        .increment();
  }

  /**
   * One eviction command was issued for a pod of {@code cluster}, for {@code reason} (its code).
   */
  public void issued(final String cluster, final String reason) {
    countByReason(issuedByReason, EVICTIONS, "Eviction commands issued", cluster, reason);
  }

  /**
   * One eviction command retried a pod of {@code cluster} for {@code reason} (it also counts as
   * issued).
   */
  public void retried(final String cluster, final String reason) {
    countByReason(
        retriedByReason,
        EVICTIONS_RETRIED,
        "Eviction commands retrying a pod not evicted before",
        cluster,
        reason);
  }

  private void countByReason(
      final Map<ClusterReason, Counter> counters,
      final String name,
      final String description,
      final String cluster,
      final String reason) {
    counters
        .computeIfAbsent(
            new ClusterReason(cluster, reason),
            key ->
                Counter.builder(name)
                    .description(description)
                    .tag("cluster", key.cluster())
                    .tag("reason", key.reason())
                    .register(registry))
        .increment();
  }

  /** The tags of a counter by cluster and reason code. */
  private record ClusterReason(String cluster, String reason) {}

  /** A pod of {@code cluster} used up its eviction attempts without being evicted. */
  public void exhausted(final String cluster) {
    count(
        exhaustedByCluster,
        EVICTIONS_EXHAUSTED,
        "Pods whose eviction attempts ran out without an eviction",
        cluster);
  }

  private void count(
      final Map<String, Counter> counters,
      final String name,
      final String description,
      final String cluster) {
    counters
        .computeIfAbsent(
            cluster,
            c ->
                Counter.builder(name).description(description).tag("cluster", c).register(registry))
        .increment();
  }
}
