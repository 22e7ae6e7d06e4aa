package io.quotaflow.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Collection;
import org.junit.jupiter.api.Test;

/**
 * A window store's and a key-value store's meters of one name carry the same tag keys, so that a
 * registry that insists on one set per name (Prometheus) keeps both.
 */
class StoreMeterTagsTest {

  @Test
  void windowStoresAreTaggedAsKeyValueStoresAre() {
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    StoreMeterTags.unify(registry);

    Gauge.builder("kafka.stream.state.restore.latency.avg", () -> 1.0)
        .tag("in.memory.window.state.id", "group-history-60s")
        .tag("task.id", "0_0")
        .register(registry);
    Gauge.builder("kafka.stream.state.restore.latency.avg", () -> 2.0)
        .tag("in.memory.state.id", "runtime")
        .tag("task.id", "0_0")
        .register(registry);
    Gauge.builder("kafka.stream.state.put.rate", () -> 3.0)
        .tag("rocksdb-window-state-id", "group-history-60s")
        .register(registry);

    final Collection<Meter> restores =
        registry.find("kafka.stream.state.restore.latency.avg").meters();
    assertThat(restores)
        .extracting(meter -> meter.getId().getTag("in.memory.state.id"))
        .containsExactlyInAnyOrder("group-history-60s", "runtime");
    assertThat(restores)
        .allSatisfy(
            meter -> assertThat(meter.getId().getTag("in.memory.window.state.id")).isNull());
    assertThat(
            registry.get("kafka.stream.state.put.rate").gauge().getId().getTag("rocksdb-state-id"))
        .isEqualTo("group-history-60s");
  }

  @Test
  void otherMetersKeepTheirTags() {
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    StoreMeterTags.unify(registry);

    Gauge.builder("quotaflow.window", () -> 1.0)
        .tag("in.memory.window.state.id", "x")
        .register(registry);

    assertThat(registry.get("quotaflow.window").gauge().getId().getTag("in.memory.window.state.id"))
        .isEqualTo("x");
  }
}
