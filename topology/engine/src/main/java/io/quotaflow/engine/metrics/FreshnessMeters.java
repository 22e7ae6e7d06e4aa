package io.quotaflow.engine.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The meters of each cluster's input freshness: how old its newest markers are, how far its
 * connectors' clocks are ahead, whether its reclaim is suspended, and the inputs its snapshots
 * dropped. Thread-safe: stream threads share one instance ({@link EngineMetrics#freshness()}).
 */
public final class FreshnessMeters {
  /**
   * Gauge of the age in seconds of a cluster's oldest newest input marker (heartbeat), tag {@code
   * cluster}; -1 while none was read.
   */
  public static final String INPUTS_STALENESS = "quotaflow.engine.inputs.staleness.seconds";

  /**
   * Gauge of how many seconds ahead of its record's time (at most the engine's clock) a cluster's
   * connectors stamped their newest marker, tag {@code cluster}: their clock's skew (issue 40).
   */
  public static final String INPUTS_CLOCK_SKEW = "quotaflow.engine.inputs.clock.skew.seconds";

  /**
   * Gauge: 1 while reclaim of a cluster is suspended because its inputs are not fresh (or wait for
   * a snapshot), else 0; tag {@code cluster}.
   */
  public static final String RECLAIM_SUSPENDED = "quotaflow.engine.reclaim.suspended";

  /**
   * Counter of inputs dropped because a connectors' snapshot did not re-send them (deletes lost or
   * compacted away), tags {@code cluster} and {@code kind}.
   */
  public static final String SNAPSHOT_DROPPED = "quotaflow.engine.snapshot.dropped";

  private final MeterRegistry registry;
  private final ClusterGauges gauges;
  private final Map<String, AtomicInteger> staleness = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> skew = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> suspended = new ConcurrentHashMap<>();

  FreshnessMeters(final MeterRegistry registry, final ClusterGauges gauges) {
    this.registry = registry;
    this.gauges = gauges;
  }

  /**
   * How fresh {@code cluster}'s inputs are: the age of its oldest newest marker (null when none was
   * read), and whether its reclaim is suspended.
   */
  public void freshness(final String cluster, final Duration age, final boolean reclaimSuspended) {
    gauges
        .of(
            staleness,
            INPUTS_STALENESS,
            "Age in seconds of the oldest of a cluster's newest input heartbeats; -1 while none was"
                + " read",
            cluster)
        .set(age == null ? -1 : (int) Math.min(Integer.MAX_VALUE, age.toSeconds()));
    gauges
        .of(
            suspended,
            RECLAIM_SUSPENDED,
            "1 while reclaim of a cluster is suspended because its inputs are stale or wait for a"
                + " snapshot",
            cluster)
        .set(reclaimSuspended ? 1 : 0);
  }

  /** How far ahead {@code cluster}'s connectors stamp their markers (negative: behind). */
  public void clockSkew(final String cluster, final Duration ahead) {
    gauges
        .of(
            skew,
            INPUTS_CLOCK_SKEW,
            "Seconds a cluster's connectors stamped their newest marker ahead of its record's time"
                + " (at most the engine's clock); negative: behind",
            cluster)
        .set((int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, ahead.toSeconds())));
  }

  /** A snapshot of {@code cluster}'s inputs of {@code kind} dropped {@code count} inputs. */
  public void snapshotDropped(final String cluster, final String kind, final int count) {
    if (count > 0) {
      Counter.builder(SNAPSHOT_DROPPED)
          .description(
              "Inputs dropped because a connectors' snapshot did not re-send them (deletes lost or"
                  + " compacted away)")
          .tag("cluster", cluster)
          .tag("kind", kind)
          .register(registry)
          .increment(count);
    }
  }

  /** Removes {@code cluster}'s gauges (its task moved away). */
  void released(final String cluster) {
    gauges.remove(staleness, INPUTS_STALENESS, cluster);
    gauges.remove(skew, INPUTS_CLOCK_SKEW, cluster);
    gauges.remove(suspended, RECLAIM_SUSPENDED, cluster);
  }
}
