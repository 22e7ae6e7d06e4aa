package io.quotaflow.engine.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Gives Kafka Streams' state-store meters one tag key per store kind, whatever the store's shape.
 * Kafka Streams tags a window store's meters {@code in-memory-window-state-id} and a key-value
 * store's {@code in-memory-state-id} under the same meter names; Prometheus refuses a second set of
 * tag keys for a name, so the history's window store (semantics section 23) would silence every
 * key-value store's meters. Window stores' keys are renamed to the key-value ones.
 */
public final class StoreMeterTags {

  private static final String PREFIX = "kafka.stream.state";

  // The registries the renaming was added to: once each, however many engines share one.
  private static final Set<MeterRegistry> UNIFIED =
      Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

  private StoreMeterTags() {}

  /**
   * Adds the renaming to {@code registry}, for meters registered from now on; once per registry.
   * Call it where the registry is made, before meters are registered (Micrometer warns otherwise).
   */
  public static void unify(MeterRegistry registry) {
    if (!UNIFIED.add(registry)) {
      return;
    }
    for (final String kind : new String[] {"in.memory", "rocksdb"}) {
      registry
          .config()
          .meterFilter(MeterFilter.renameTag(PREFIX, kind + ".window.state.id", kind + ".state.id"))
          .meterFilter(
              MeterFilter.renameTag(
                  PREFIX,
                  kind.replace('.', '-') + "-window-state-id",
                  kind.replace('.', '-') + "-state-id"));
    }
  }
}
