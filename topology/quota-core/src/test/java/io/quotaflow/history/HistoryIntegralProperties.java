package io.quotaflow.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.ResourceList;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The history's steps equal the integrals of the levels' step function computed by hand, whatever
 * the changes, the step and the period; and larger steps are the exact sums of smaller ones.
 */
class HistoryIntegralProperties {

  private static final Duration STORED = Duration.ofMinutes(1);
  private static final Instant ORIGIN = Instant.parse("2026-11-27T10:00:00Z");

  /** One change: at a millisecond after the origin, to these levels. */
  record Change(long atMillis, GroupLevels levels) {}

  @Property(tries = 300)
  void everyStepIsTheIntegralOfTheLevelsByHand(
      @ForAll("changes") List<Change> changes,
      @ForAll @IntRange(min = 1, max = 5) int stepMinutes,
      @ForAll @IntRange(min = 0, max = 4) int fromStep,
      @ForAll @IntRange(min = 1, max = 12) int stepCount,
      @ForAll @IntRange(min = 0, max = 30 * 60_000) int nowMillis) {
    final Duration step = STORED.multipliedBy(stepMinutes);
    final Instant from = ORIGIN.plus(step.multipliedBy(fromStep));
    final Instant to = from.plus(step.multipliedBy(stepCount));
    final Instant now = ORIGIN.plusMillis(nowMillis);
    final List<Change> seen = changes.stream().filter(c -> c.atMillis() <= nowMillis).toList();

    final List<HistoryStep> steps = query(seen, from, to, step, now);

    final Instant end = to.isAfter(now) ? now : to;
    Instant expectedStart = from;
    for (final HistoryStep actual : steps) {
      assertThat(actual.start()).isEqualTo(expectedStart);
      final Instant stepEnd = min(expectedStart.plus(step), end);
      assertThat(actual.end()).isEqualTo(stepEnd);
      for (final String resource : List.of(ResourceList.CPU, ResourceList.MEMORY)) {
        for (final HistoryMetric metric : HistoryMetric.values()) {
          assertThat(actual.integrals().get(resource, metric))
              .as("%s %s over [%s, %s)", resource, metric, actual.start(), actual.end())
              .isEqualTo(byHand(seen, resource, metric, expectedStart, stepEnd));
        }
      }
      expectedStart = expectedStart.plus(step);
    }
    assertThat(expectedStart.isBefore(end)).as("steps up to the end").isFalse();
  }

  @Property(tries = 200)
  void aLargerStepIsTheSumOfTheStoredSteps(
      @ForAll("changes") List<Change> changes, @ForAll @IntRange(min = 2, max = 6) int factor) {
    final Instant now = ORIGIN.plus(Duration.ofHours(1));
    final Duration step = STORED.multipliedBy(factor);
    final Instant to = ORIGIN.plus(step.multipliedBy(4));

    final List<HistoryStep> fine = query(changes, ORIGIN, to, STORED, now);
    final List<HistoryStep> coarse = query(changes, ORIGIN, to, step, now);

    assertThat(coarse).hasSize(4);
    for (int i = 0; i < coarse.size(); i++) {
      LevelIntegrals sum = LevelIntegrals.zero();
      for (final HistoryStep part : fine.subList(i * factor, (i + 1) * factor)) {
        sum = sum.plus(part.integrals());
      }
      assertThat(coarse.get(i).integrals()).isEqualTo(sum);
    }
  }

  @Property(tries = 200)
  void aReportsTotalIsTheSumOfTheKeptSteps(
      @ForAll("changes") List<Change> changes, @ForAll @IntRange(min = 1, max = 20) int minutes) {
    final Instant now = ORIGIN.plus(Duration.ofMinutes(25));
    final Instant to = ORIGIN.plus(STORED.multipliedBy(minutes));
    final List<HistoryStep> fine = query(changes, ORIGIN, to, STORED, now);

    final HistoryStep total = totalOf(changes, ORIGIN, to, now);

    LevelIntegrals sum = LevelIntegrals.zero();
    for (final HistoryStep part : fine) {
      sum = sum.plus(part.integrals());
    }
    assertThat(total.integrals()).isEqualTo(sum);
    assertThat(total.start()).isEqualTo(ORIGIN);
    assertThat(total.end()).isEqualTo(to);
  }

  private static HistoryStep totalOf(List<Change> changes, Instant from, Instant to, Instant now) {
    final TreeMap<Instant, HistoryWindow> kept = windows(changes);
    final var before = kept.headMap(from, false).lastEntry();
    return HistorySeries.total(
        from,
        to,
        STORED,
        before == null ? GroupLevels.NONE : before.getValue().last(),
        new ArrayList<>(kept.subMap(from, true, to, false).values()),
        now);
  }

  private static TreeMap<Instant, HistoryWindow> windows(List<Change> changes) {
    final TreeMap<Instant, HistoryWindow> kept = new TreeMap<>();
    GroupLevels current = GroupLevels.NONE;
    for (final Change change : changes) {
      final Instant at = ORIGIN.plusMillis(change.atMillis());
      final Instant window = HistoryWindow.windowOf(at, STORED);
      final HistoryWindow existing = kept.get(window);
      kept.put(
          window,
          existing == null
              ? HistoryWindow.opened(at, STORED, current, change.levels())
              : existing.changed(at, change.levels()));
      current = change.levels();
    }
    return kept;
  }

  /** The windows as the engine keeps them, then the query over them. */
  private static List<HistoryStep> query(
      List<Change> changes, Instant from, Instant to, Duration step, Instant now) {
    final TreeMap<Instant, HistoryWindow> kept = windows(changes);
    final var before = kept.headMap(from, false).lastEntry();
    return HistorySeries.steps(
        from,
        to,
        step,
        STORED,
        before == null ? GroupLevels.NONE : before.getValue().last(),
        new ArrayList<>(kept.subMap(from, true, to, false).values()),
        now);
  }

  private static BigInteger byHand(
      List<Change> changes, String resource, HistoryMetric metric, Instant from, Instant to) {
    BigInteger sum = BigInteger.ZERO;
    for (int i = 0; i < changes.size(); i++) {
      final long start = ORIGIN.toEpochMilli() + changes.get(i).atMillis();
      final long end =
          i + 1 < changes.size()
              ? ORIGIN.toEpochMilli() + changes.get(i + 1).atMillis()
              : Long.MAX_VALUE;
      final long overlap = Math.min(end, to.toEpochMilli()) - Math.max(start, from.toEpochMilli());
      if (overlap > 0) {
        sum =
            sum.add(
                BigInteger.valueOf(changes.get(i).levels().level(metric, resource))
                    .multiply(BigInteger.valueOf(overlap)));
      }
    }
    return sum;
  }

  @Provide
  Arbitrary<List<Change>> changes() {
    final Arbitrary<Long> cpu = Arbitraries.longs().between(0, 64_000);
    // Memory as large as a petabyte: the integrals must not overflow.
    final Arbitrary<Long> memory = Arbitraries.longs().between(0, 1L << 50);
    final Arbitrary<GroupLevels> levels =
        Combinators.combine(cpu, cpu, cpu, cpu, memory, memory)
            .as(
                (request, used, runtime, min, usedMemory, minMemory) ->
                    new GroupLevels(
                        ResourceList.of(ResourceList.CPU, request),
                        ResourceList.of(ResourceList.CPU, used, ResourceList.MEMORY, usedMemory),
                        ResourceList.of(ResourceList.CPU, runtime),
                        ResourceList.of(ResourceList.CPU, min, ResourceList.MEMORY, minMemory)));
    final Arbitrary<Long> at = Arbitraries.longs().between(0, 25 * 60_000L);
    return Combinators.combine(at, levels)
        .as(Change::new)
        .list()
        .ofMaxSize(30)
        .map(
            list ->
                list.stream().sorted((a, b) -> Long.compare(a.atMillis(), b.atMillis())).toList());
  }

  private static Instant min(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }
}
