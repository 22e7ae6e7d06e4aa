package io.quotaflow.engine.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.engine.TopologyNames;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.history.GroupLevels;
import io.quotaflow.history.HistoryStep;
import io.quotaflow.history.HistoryTiers;
import io.quotaflow.history.HistoryTiers.Tier;
import io.quotaflow.history.HistoryWindow;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.schemas.internal.GroupHistoryWindow;
import io.quotaflow.serde.AvroSerde;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;

/**
 * docs/semantics.md section 23, two tiers: whatever the changes, evictions and late denials over
 * some hours, every coarse-aligned period's totals read from the coarse tier equal those read from
 * the fine tier, to the unit-millisecond and count, and so do steps of the coarse step.
 */
class TieredHistoryProperties {

  private static final String CLUSTER = "east";
  private static final List<String> GROUPS = List.of("team-a", "team-b");
  private static final HistoryTiers TIERS =
      new HistoryTiers(
          Duration.ofMinutes(1), Duration.ofDays(1), Duration.ofHours(1), Duration.ofDays(14));
  private static final Duration HOUR = TIERS.coarseStep();
  private static final Instant BASE = Instant.parse("2026-11-27T10:00:00Z");
  private static final List<GroupLevels> LEVELS =
      List.of(
          levels(2_000, 4_000, 4_000),
          levels(6_000, 4_000, 6_000),
          levels(500, 1_000, 1_000),
          new GroupLevels(
              ResourceList.of("cpu", 3_000L, "nvidia.com/gpu", 2L),
              ResourceList.of("cpu", 3_000L, "nvidia.com/gpu", 2L),
              ResourceList.of("cpu", 3_000L, "nvidia.com/gpu", 1L),
              ResourceList.of("cpu", 2_000L, "nvidia.com/gpu", 1L)),
          GroupLevels.NONE);

  /** One input: a change, an eviction, or a denial decided {@code back} ms before it is read. */
  record Event(long at, int kind, int group, int levels, long back, int reason) {}

  @Property(tries = 150)
  void everyCoarsePeriodHasTheSameTotalsFromEitherTier(
      @ForAll("events") List<Event> events, @ForAll @LongRange(max = 3_599_999) long shift) {
    final WindowStore<GroupId, GroupHistoryWindow> fine = store(TIERS.fineStep(), TIERS.fineKept());
    final WindowStore<GroupId, GroupHistoryWindow> coarse =
        store(TIERS.coarseStep(), TIERS.retention());
    final TieredHistory history =
        TieredHistory.of(
            name -> name.equals(TopologyNames.historyStore(TIERS.fineStep())) ? fine : coarse,
            TIERS);
    final Instant start = BASE.plusMillis(shift);
    final Map<GroupId, GroupLevels> runtime = new HashMap<>();
    Instant last = start;
    final List<Event> sorted = new ArrayList<>(events);
    sorted.sort(Comparator.comparingLong(Event::at));
    for (final Event event : sorted) {
      final GroupId group = new GroupId(CLUSTER, GROUPS.get(event.group()));
      final Instant at = start.plusMillis(event.at());
      final String reason = event.reason() == 0 ? "exceeds-max" : "reclaimed-after-delay";
      final GroupLevels current = runtime.getOrDefault(group, GroupLevels.NONE);
      switch (event.kind()) {
        case 0 -> {
          history.changed(group, at, () -> current, LEVELS.get(event.levels()));
          runtime.put(group, LEVELS.get(event.levels()));
        }
        case 1 -> history.evicted(group, at, () -> current, reason);
        default -> {
          final Instant decided = at.minusMillis(event.back());
          history.denied(group, decided.isBefore(start) ? start : decided, () -> current, reason);
        }
      }
      last = at;
    }
    final Instant from = HistoryWindow.windowOf(start, HOUR);
    final Instant end = HistoryWindow.windowOf(last, HOUR).plus(HOUR).plus(HOUR);
    final Instant now = end.plusSeconds(1);
    final HistoryQueries queries = new HistoryQueries(fine, coarse, TIERS);

    for (Instant a = from; a.isBefore(end); a = a.plus(HOUR)) {
      for (Instant b = a.plus(HOUR); !b.isAfter(end); b = b.plus(HOUR)) {
        final Map<String, HistoryStep> fromFine =
            queries.totals(Tier.FINE, CLUSTER, GROUPS, a, b, now);
        final Map<String, HistoryStep> fromCoarse =
            queries.totals(Tier.COARSE, CLUSTER, GROUPS, a, b, now);
        assertThat(fromCoarse).as("[%s, %s)", a, b).isEqualTo(fromFine);
      }
    }
    for (final String group : GROUPS) {
      assertThat(queries.steps(Tier.COARSE, CLUSTER, group, from, end, HOUR, now))
          .as(group)
          .isEqualTo(queries.steps(Tier.FINE, CLUSTER, group, from, end, HOUR, now));
    }
  }

  @Provide
  Arbitrary<List<Event>> events() {
    final Arbitrary<Event> event =
        Combinators.combine(
                Arbitraries.longs().between(0, Duration.ofHours(5).toMillis()),
                Arbitraries.integers().between(0, 2),
                Arbitraries.integers().between(0, GROUPS.size() - 1),
                Arbitraries.integers().between(0, LEVELS.size() - 1),
                Arbitraries.longs().between(0, Duration.ofMinutes(90).toMillis()),
                Arbitraries.integers().between(0, 1))
            .as(Event::new);
    return event.list().ofMinSize(1).ofMaxSize(40);
  }

  private static WindowStore<GroupId, GroupHistoryWindow> store(Duration step, Duration kept) {
    final WindowStore<GroupId, GroupHistoryWindow> store =
        Stores.windowStoreBuilder(
                Stores.inMemoryWindowStore(TopologyNames.historyStore(step), kept, step, false),
                GroupId.serde(),
                AvroSerde.forValues(GroupHistoryWindow.class))
            .withLoggingDisabled()
            .build();
    store.init(new MockProcessorContext<>().getStateStoreContext(), store);
    return store;
  }

  private static GroupLevels levels(long used, long min, long runtime) {
    final ResourceList cpu = ResourceList.of("cpu", used);
    return new GroupLevels(cpu, cpu, ResourceList.of("cpu", runtime), ResourceList.of("cpu", min));
  }
}
