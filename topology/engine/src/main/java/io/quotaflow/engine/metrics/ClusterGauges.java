package io.quotaflow.engine.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** Integer gauges tagged by cluster, registered on first use and removed with their cluster. */
final class ClusterGauges {
  private final MeterRegistry registry;

  ClusterGauges(final MeterRegistry registry) {
    this.registry = registry;
  }

  /** {@code cluster}'s value of gauge {@code name}, kept in {@code values}. */
  AtomicInteger of(
      final Map<String, AtomicInteger> values,
      final String name,
      final String description,
      final String cluster) {
    return values.computeIfAbsent(
        cluster,
        c -> {
          final AtomicInteger value = new AtomicInteger();
          Gauge.builder(name, value, AtomicInteger::get)
              .description(description)
              .tag("cluster", c)
              .register(registry);
          return value;
        });
  }

  /** Removes {@code cluster}'s gauge {@code name}, if it has one. */
  void remove(final Map<String, AtomicInteger> values, final String name, final String cluster) {
    if (values.remove(cluster) != null) {
      final Gauge gauge = registry.find(name).tag("cluster", cluster).gauge();
      if (gauge != null) {
        registry.remove(gauge);
      }
    }
  }
}
