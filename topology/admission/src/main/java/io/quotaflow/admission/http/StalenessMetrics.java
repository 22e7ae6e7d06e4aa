package io.quotaflow.admission.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.admission.state.LastKnownState;
import io.quotaflow.admission.state.Staleness;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The meters of answers given from a last state: a gauge per cluster of the age of the last state
 * this instance keeps (what a stale answer would be given from; while the stores answer it stays
 * below {@code admission.state.refresh.interval}), and a counter of stale answers per cluster and
 * endpoint.
 */
final class StalenessMetrics {

  /** Gauge, seconds, tag {@code cluster}. */
  static final String STATE_AGE = "quotaflow.admission.state.age";

  /** Counter, tags {@code cluster} and {@code endpoint}. */
  static final String STALE_ANSWERS = "quotaflow.admission.stale.answers";

  private record Key(String cluster, String endpoint) {}

  private final MeterRegistry registry;
  private final LastKnownState lastKnown;
  private final Map<String, Gauge> gauges = new ConcurrentHashMap<>();
  private final Map<Key, Counter> counters = new ConcurrentHashMap<>();

  StalenessMetrics(MeterRegistry registry, LastKnownState lastKnown) {
    this.registry = registry;
    this.lastKnown = lastKnown;
  }

  /** Counts one answer of {@code endpoint} given from {@code cluster}'s last state. */
  void answered(String cluster, String endpoint) {
    counters
        .computeIfAbsent(
            new Key(cluster, endpoint),
            key ->
                Counter.builder(STALE_ANSWERS)
                    .description("Answers given from a cluster's last state, the stores unreadable")
                    .tag("cluster", key.cluster())
                    .tag("endpoint", key.endpoint())
                    .register(registry))
        .increment();
  }

  /** Gauges the clusters whose last state is kept, and no others. */
  void track() {
    final Set<String> clusters = lastKnown.clusters();
    for (final String cluster : clusters) {
      gauges.computeIfAbsent(
          cluster,
          name ->
              Gauge.builder(STATE_AGE, lastKnown, state -> ageSeconds(state, name))
                  .description("Age of the last state of a cluster the plugin would answer from")
                  .tag("cluster", name)
                  .baseUnit("seconds")
                  .register(registry));
    }
    gauges
        .entrySet()
        .removeIf(
            entry -> {
              if (clusters.contains(entry.getKey())) {
                return false;
              }
              registry.remove(entry.getValue());
              return true;
            });
  }

  private static double ageSeconds(LastKnownState state, String cluster) {
    return state
        .staleness(cluster)
        .map(Staleness::age)
        .map(age -> age.toNanos() / 1e9)
        .orElse(Double.NaN);
  }
}
