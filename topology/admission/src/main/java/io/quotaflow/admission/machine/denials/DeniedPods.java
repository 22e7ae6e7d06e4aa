package io.quotaflow.admission.machine.denials;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.reason.Reason;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pods turned away: counted in {@value #DENIED}, by reason code (docs/semantics.md section 19)
 * and by which endpoint turned them away, and written to the {@link DenialLog} (dry runs only
 * counted: no pod was refused). Only real denials count: a pod only warned about in warn mode is
 * admitted.
 */
public final class DeniedPods {

  /** Counter, tags {@code reason} and {@code occasion}; Prometheus adds {@code _total}. */
  public static final String DENIED = "quotaflow.pods.denied";

  /** Which endpoint denied: the tag {@code occasion}. */
  public enum Occasion {
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
  private final DenialLog log;
  private final Map<Key, Counter> counters = new ConcurrentHashMap<>();

  public DeniedPods(MeterRegistry registry, DenialLog log) {
    this.registry = registry;
    this.log = log;
  }

  /**
   * Counts {@code pod} of {@code cluster} denied for {@code reason} and, unless {@code dryRun},
   * writes it to the log.
   */
  public void denied(
      String cluster,
      QuotaPod pod,
      String group,
      Reason reason,
      String message,
      Occasion occasion,
      boolean dryRun) {
    denied(reason, occasion);
    if (!dryRun) {
      log.write(
          new DenialLog.Entry(
              cluster,
              pod.ref(),
              group,
              reason,
              message,
              occasion == Occasion.FILTER ? DenialLog.Endpoint.FILTER : DenialLog.Endpoint.WEBHOOK,
              pod.request()));
    }
  }

  /** Counts one pod denied for {@code reason}. */
  private void denied(Reason reason, Occasion occasion) {
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
