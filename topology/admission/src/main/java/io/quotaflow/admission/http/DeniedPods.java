package io.quotaflow.admission.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.reason.Reason;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The counter {@value #DENIED} of pods turned away, by reason code (docs/semantics.md section 19)
 * and by which endpoint turned them away. Only real denials count: a pod only warned about in warn
 * mode is admitted.
 */
final class DeniedPods {

  /** Counter, tags {@code reason} and {@code occasion}; Prometheus adds {@code _total}. */
  static final String DENIED = "quotaflow.pods.denied";

  /** Which endpoint denied: the tag {@code occasion}. */
  enum Occasion {
    /** The pod webhook, at creation (dry runs and resizes included). */
    WEBHOOK("webhook"),
    /** The scheduler extender's filter: no candidate node is left for the pod. */
    FILTER("filter");

    private final String tag;

    Occasion(String tag) {
      this.tag = tag;
    }

    String tag() {
      return tag;
    }
  }

  private record Key(Reason reason, Occasion occasion) {}

  private final MeterRegistry registry;
  private final Map<Key, Counter> counters = new ConcurrentHashMap<>();

  DeniedPods(MeterRegistry registry) {
    this.registry = registry;
  }

  /** Counts one pod denied for {@code reason}. */
  void denied(Reason reason, Occasion occasion) {
    counters
        .computeIfAbsent(
            new Key(reason, occasion),
            key ->
                Counter.builder(DENIED)
                    .description("Pods denied by the admission plugin, by reason code")
                    .tag("reason", key.reason().code())
                    .tag("occasion", key.occasion().tag())
                    .register(registry))
        .increment();
  }
}
