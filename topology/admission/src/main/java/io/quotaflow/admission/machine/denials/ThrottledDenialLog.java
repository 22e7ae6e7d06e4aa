package io.quotaflow.admission.machine.denials;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.quota.PodRef;
import io.quotaflow.reason.Reason;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Keeps one tenant from flooding {@code denials.v1} out of the other tenants' records (issue 39):
 * in front of the log's queue, a denial of a pod already recorded for the same reason within the
 * window is a duplicate, and at most {@code maxPerGroup} denials per group, and as many per
 * namespace, are recorded per window (the group because the history counts per group, the namespace
 * because a pod chooses the group its label names and a tenant owns only its namespaces). What is
 * dropped is counted in {@value #DROPPED} by why, never queued. The pods' creators are answered all
 * the same, and {@code quotaflow_pods_denied_total} counts every denial: only the history's records
 * are thinned.
 *
 * <p>Windows are fixed, one after the other from the first denial: at each new window the counts
 * start again and the pods recorded in an earlier window are forgotten, so memory is bounded by
 * what one window may record.
 */
public final class ThrottledDenialLog implements DenialLog {

  /** Counter of denials not recorded, tag {@code why}; Prometheus adds {@code _total}. */
  public static final String DROPPED = "quotaflow.denials.dropped";

  private final DenialLog inner;
  private final Duration window;
  private final int maxPerGroup;
  private final Clock clock;
  private final Counter duplicate;
  private final Counter rateLimited;
  // Guarded by this: request threads write concurrently.
  private final Map<Recorded, Instant> recorded = new HashMap<>();
  private final Map<Budget, Integer> spent = new HashMap<>();
  private Instant windowStart;

  /**
   * @param inner where the denials that pass go ({@link KafkaDenialLog})
   * @param window how long a pod's denial for one reason is recorded once, and the span of the
   *     per-group limit; positive
   * @param maxPerGroup denials recorded per group (and per namespace) per window; at least 1
   * @param clock reads the windows
   * @param registry where {@value #DROPPED} is counted
   */
  public ThrottledDenialLog(
      DenialLog inner, Duration window, int maxPerGroup, Clock clock, MeterRegistry registry) {
    this.inner = Objects.requireNonNull(inner, "inner");
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("the denials window must be positive: " + window);
    }
    if (maxPerGroup < 1) {
      throw new IllegalArgumentException("maxPerGroup must be at least 1: " + maxPerGroup);
    }
    this.window = window;
    this.maxPerGroup = maxPerGroup;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.duplicate = dropped(registry, "duplicate");
    this.rateLimited = dropped(registry, "rate-limited");
  }

  private static Counter dropped(MeterRegistry registry, String why) {
    return Counter.builder(DROPPED)
        .description(
            "Denials not written to denials.v1 because the same pod was denied for the same reason"
                + " within the window, or its group or namespace used its records of the window")
        .tag("why", why)
        .register(registry);
  }

  @Override
  public void write(Entry entry) {
    if (admit(entry)) {
      inner.write(entry);
    }
  }

  private synchronized boolean admit(Entry entry) {
    final Instant now = clock.instant();
    if (windowStart == null
        || !now.isBefore(windowStart.plus(window))
        || now.isBefore(windowStart)) {
      // A new window (or a clock set back): counts start again, older pods are forgotten.
      windowStart = now;
      spent.clear();
      recorded.values().removeIf(at -> !now.isBefore(at.plus(window)) || now.isBefore(at));
    }
    final Recorded pod = new Recorded(entry.cluster(), entry.pod(), entry.reason());
    final Instant last = recorded.get(pod);
    if (last != null && now.isBefore(last.plus(window))) {
      duplicate.increment();
      return false;
    }
    final Budget group = new Budget(entry.cluster(), true, entry.group());
    final Budget namespace = new Budget(entry.cluster(), false, entry.pod().namespace());
    if (spent.getOrDefault(group, 0) >= maxPerGroup
        || spent.getOrDefault(namespace, 0) >= maxPerGroup) {
      rateLimited.increment();
      return false;
    }
    spent.merge(group, 1, Integer::sum);
    spent.merge(namespace, 1, Integer::sum);
    recorded.put(pod, now);
    return true;
  }

  @Override
  public void close() {
    inner.close();
  }

  /** A pod's denial for one reason, as recorded. */
  private record Recorded(String cluster, PodRef pod, Reason reason) {}

  /** What a window's records are counted against: a group, or a namespace, of a cluster. */
  private record Budget(String cluster, boolean isGroup, String name) {}
}
