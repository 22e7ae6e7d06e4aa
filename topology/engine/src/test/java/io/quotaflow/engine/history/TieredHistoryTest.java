package io.quotaflow.engine.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.engine.TopologyNames;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.history.GroupLevels;
import io.quotaflow.history.HistoryTiers;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.schemas.internal.GroupHistoryWindow;
import io.quotaflow.serde.AvroSerde;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.junit.jupiter.api.Test;

/**
 * Section 23, two tiers: a denial read late goes to both tiers while the fine store keeps its
 * window, and to the coarse tier alone once it is older than that (the fine store would drop it
 * with a warning, one per denial of a backlog).
 */
class TieredHistoryTest {

  private static final HistoryTiers TIERS =
      new HistoryTiers(
          Duration.ofMinutes(1), Duration.ofDays(1), Duration.ofHours(1), Duration.ofDays(14));
  private static final GroupId TEAM_A = new GroupId("east", "team-a");
  private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
  private static final GroupLevels LEVELS =
      new GroupLevels(
          ResourceList.of("cpu", 2_000L),
          ResourceList.of("cpu", 2_000L),
          ResourceList.of("cpu", 2_000L),
          ResourceList.of("cpu", 4_000L));

  private final StateStoreContext context = new MockProcessorContext<>().getStateStoreContext();
  private final WindowStore<GroupId, GroupHistoryWindow> fine =
      store(TIERS.fineStep(), TIERS.fineKept());
  private final WindowStore<GroupId, GroupHistoryWindow> coarse =
      store(TIERS.coarseStep(), TIERS.retention());
  private final TieredHistory history =
      TieredHistory.of(
          name -> name.equals(TopologyNames.historyStore(TIERS.fineStep())) ? fine : coarse, TIERS);

  @Test
  void aDenialOlderThanTheFineStoreKeepsGoesToTheCoarseTierAlone() {
    history.changed(TEAM_A, NOW, () -> GroupLevels.NONE, LEVELS);
    final Instant lastHour = NOW.minus(Duration.ofHours(1));
    final Instant twoDaysAgo = NOW.minus(Duration.ofDays(2));

    history.denied(TEAM_A, lastHour, () -> LEVELS, "exceeds-max");
    history.denied(TEAM_A, twoDaysAgo, () -> LEVELS, "exceeds-max");

    assertThat(kept(fine, lastHour)).isTrue();
    assertThat(kept(coarse, lastHour)).isTrue();
    assertThat(kept(coarse, twoDaysAgo)).isTrue();
    assertThat(kept(fine, twoDaysAgo)).isFalse();
    assertThat(dropped()).as("records the fine store dropped as expired").isZero();
  }

  private static boolean kept(WindowStore<GroupId, GroupHistoryWindow> store, Instant at) {
    try (WindowStoreIterator<GroupHistoryWindow> windows =
        store.fetch(TEAM_A, at.minus(Duration.ofHours(1)), at)) {
      return windows.hasNext();
    }
  }

  private double dropped() {
    double total = 0;
    for (final Map.Entry<
            org.apache.kafka.common.MetricName, ? extends org.apache.kafka.common.Metric>
        metric : context.metrics().metrics().entrySet()) {
      if (metric.getKey().name().equals("dropped-records-total")) {
        total += ((Number) metric.getValue().metricValue()).doubleValue();
      }
    }
    return total;
  }

  private WindowStore<GroupId, GroupHistoryWindow> store(Duration step, Duration kept) {
    final WindowStore<GroupId, GroupHistoryWindow> store =
        Stores.windowStoreBuilder(
                Stores.inMemoryWindowStore(TopologyNames.historyStore(step), kept, step, false),
                GroupId.serde(),
                AvroSerde.forValues(GroupHistoryWindow.class))
            .withLoggingDisabled()
            .build();
    store.init(context, store);
    return store;
  }
}
