package io.quotaflow.admission.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The plugin's request meters: one timer {@value #REQUESTS} per endpoint, outcome and HTTP status,
 * with a latency histogram for Prometheus.
 */
public final class RequestMetrics {

  /** Timer of requests, tags {@code endpoint}, {@code outcome}, {@code status}. */
  static final String REQUESTS = "quotaflow.admission.requests";

  private record Key(String endpoint, String outcome, int status) {}

  private final MeterRegistry registry;
  private final Map<Key, Timer> timers = new ConcurrentHashMap<>();

  RequestMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  public void record(String endpoint, String outcome, int status, long nanos) {
    timers
        .computeIfAbsent(
            new Key(endpoint, outcome, status),
            key ->
                Timer.builder(REQUESTS)
                    .description("Requests answered by the admission plugin")
                    .tag("endpoint", key.endpoint())
                    .tag("outcome", key.outcome())
                    .tag("status", Integer.toString(key.status()))
                    .publishPercentileHistogram()
                    .minimumExpectedValue(Duration.ofMillis(1))
                    .maximumExpectedValue(Duration.ofSeconds(5))
                    .register(registry))
        .record(nanos, TimeUnit.NANOSECONDS);
  }
}
