package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.node;
import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.history.HistoryChangelog;
import io.quotaflow.engine.history.HistoryRecords;
import io.quotaflow.history.GroupLevels;
import io.quotaflow.history.HistoryMetric;
import io.quotaflow.history.HistoryStep;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.QuotaKey;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * docs/semantics.md section 23 on the topology: the history of a scripted timeline (wall-clock
 * punctuation) equals the integral, computed by hand, of the runtime records the engine emitted;
 * larger steps are exact sums; and a group that borrowed two cores for 60 of the 120 seconds reads
 * as having borrowed one core on average.
 */
class HistoryTopologyTest {
  private static final String EAST = "east";
  private static final String NS = "apps";
  private static final Duration MINUTE = Duration.ofMinutes(1);

  EngineDriver engine = new EngineDriver(settings().build());
  // Every runtime record of team-a the engine emitted, with its time.
  private final List<TestRecord<QuotaKey, GroupRuntime>> teamA = new ArrayList<>();

  /** The engine's settings for every case; {@link HistoryInRocksDbTopologyTest} moves the store. */
  EngineConfig.Builder settings() {
    return EngineDriver.settings();
  }

  @AfterEach
  void close() {
    engine.close();
  }

  @Test
  void theHistoryIsTheIntegralOfTheEmittedRuntimeRecords() {
    final Instant start = scriptedTimeline();

    final List<HistoryStep> steps =
        engine
            .history()
            .steps(EAST, "team-a", start, start.plus(Duration.ofMinutes(4)), MINUTE, engine.now());

    assertThat(steps).hasSize(4);
    for (final HistoryStep step : steps) {
      for (final HistoryMetric metric : HistoryMetric.values()) {
        assertThat(step.integrals().get(ResourceList.CPU, metric))
            .as("%s over [%s, %s)", metric, step.start(), step.end())
            .isEqualTo(byHand(metric, step.start(), step.end()));
      }
    }
    // Borrowed 2 cores from 60 s (plus one recomputation) to 120 s: one core on average over the
    // second minute, to within the recomputation interval.
    assertThat(steps.get(1).average(ResourceList.CPU, HistoryMetric.BORROWED))
        .isBetween(1_900L, 2_000L);
    assertThat(steps.get(2).average(ResourceList.CPU, HistoryMetric.BORROWED)).isZero();
    assertThat(steps.get(0).average(ResourceList.CPU, HistoryMetric.LENT)).isGreaterThan(0);
  }

  @Test
  void aLargerStepIsTheExactSumOfTheKeptSteps() {
    final Instant start = scriptedTimeline();
    final List<HistoryStep> minutes =
        engine
            .history()
            .steps(EAST, "team-a", start, start.plus(Duration.ofMinutes(4)), MINUTE, engine.now());
    final List<HistoryStep> twoMinutes =
        engine
            .history()
            .steps(
                EAST,
                "team-a",
                start,
                start.plus(Duration.ofMinutes(4)),
                MINUTE.multipliedBy(2),
                engine.now());

    assertThat(twoMinutes).hasSize(2);
    for (int i = 0; i < 2; i++) {
      assertThat(twoMinutes.get(i).integrals())
          .isEqualTo(minutes.get(2 * i).integrals().plus(minutes.get(2 * i + 1).integrals()));
    }
    assertThat(twoMinutes.get(0).integrals().get(ResourceList.CPU, HistoryMetric.BORROWED))
        .isPositive();
  }

  @Test
  void aDeletedGroupReadsAsZeroFromItsDeletionOn() {
    final Instant start = scriptedTimeline();
    engine.deleteQuota(EAST, "team-a").recompute();
    final Instant deleted = engine.now();
    engine.advance(Duration.ofMinutes(2));

    final List<HistoryStep> steps =
        engine
            .history()
            .steps(
                EAST,
                "team-a",
                start.plus(Duration.ofMinutes(5)),
                start.plus(Duration.ofMinutes(6)),
                MINUTE,
                engine.now());

    assertThat(deleted).isBefore(start.plus(Duration.ofMinutes(5)));
    assertThat(steps).hasSize(1);
    for (final HistoryMetric metric : HistoryMetric.values()) {
      assertThat(steps.get(0).integrals().get(ResourceList.CPU, metric)).isEqualTo(BigInteger.ZERO);
    }
  }

  @Test
  void theHistoryCountsTheEvictionsOfAGroupByReasonInTheStepTheyWereCommanded() {
    final Instant start = engine.now();
    ReclaimScene.teamABorrowsTheWholeCluster(engine, false);
    ReclaimScene.teamBClaimsItsMin(engine);
    // A check notices the over-use; commands come once it has lasted the delay.
    engine.advance(ReclaimScene.CHECK);
    engine.advance(ReclaimScene.DELAY.minus(ReclaimScene.CHECK));
    engine.advance(ReclaimScene.CHECK);
    final List<TestRecord<io.quotaflow.schemas.PodKey, io.quotaflow.schemas.EvictionCommand>>
        commands = engine.evictionRecords();
    assertThat(commands).hasSize(2);
    final Instant commanded = Instant.ofEpochMilli(commands.get(0).timestamp());
    engine.advance(MINUTE);

    final List<HistoryStep> steps =
        engine
            .history()
            .steps(
                ReclaimScene.EAST,
                "team-a",
                start,
                start.plus(Duration.ofMinutes(4)),
                MINUTE,
                engine.now());

    final int minute = (int) Duration.between(start, commanded).toMinutes();
    for (int i = 0; i < steps.size(); i++) {
      assertThat(steps.get(i).evictions())
          .as("step %d", i)
          .isEqualTo(
              i == minute ? java.util.Map.of("reclaimed-after-delay", 2L) : java.util.Map.of());
    }
    assertThat(
            engine
                .history()
                .steps(
                    ReclaimScene.EAST,
                    "team-b",
                    start,
                    start.plus(Duration.ofMinutes(4)),
                    MINUTE,
                    engine.now())
                .stream()
                .allMatch(step -> step.evictions().isEmpty()))
        .isTrue();
  }

  @Test
  void theHistoryCountsDenialsInTheStepOfTheirDecisionWithoutChangingTheIntegrals() {
    final Instant start = scriptedTimeline();
    // A change after the quiet fifth minute: the levels now are not those in force then.
    engine.advance(Duration.ofMinutes(1));
    engine.putPod(EAST, NS, pod("later").group("team-a").running("n1").cpu(1_000)).recompute();
    engine.advance(Duration.ofMinutes(1));
    final Instant end = engine.now();
    final List<HistoryStep> before = teamAMinutes(start, end);
    // Read late, as after an outage: the second minute has a record, the fifth none (quiet), so
    // the denial opens it with the levels in force then.
    engine
        .putDenial(EAST, NS, "p1", "team-a", "exceeds-max", start.plusSeconds(70))
        .putDenial(EAST, NS, "p2", "team-a", "exceeds-max", start.plusSeconds(80))
        .putDenial(EAST, NS, "p3", "team-a", "exceeds-runtime", start.plusSeconds(250));
    engine.advance(Duration.ofSeconds(1));

    final List<HistoryStep> after = teamAMinutes(start, end);

    assertThat(after).hasSize(7);
    for (int i = 0; i < after.size(); i++) {
      assertThat(after.get(i).integrals()).as("step %d", i).isEqualTo(before.get(i).integrals());
      assertThat(after.get(i).denials())
          .as("step %d", i)
          .isEqualTo(
              switch (i) {
                case 1 -> java.util.Map.of("exceeds-max", 2L);
                case 4 -> java.util.Map.of("exceeds-runtime", 1L);
                default -> java.util.Map.of();
              });
    }
  }

  @Test
  void theChangelogReadOutsideTheEngineGivesBackTheSameHistory() {
    final Instant start = scriptedTimeline();
    engine.putDenial(EAST, NS, "p1", "team-a", "exceeds-max", start.plusSeconds(70));
    engine.advance(Duration.ofSeconds(1));
    final String topic = HistoryChangelog.topic(EngineDriver.APPLICATION_ID, MINUTE);
    assertThat(HistoryChangelog.stepOf(EngineDriver.APPLICATION_ID, topic)).contains(MINUTE);

    // The latest record of each window, as the store keeps it and a restore would rebuild it.
    final java.util.TreeMap<Instant, io.quotaflow.history.HistoryWindow> read =
        new java.util.TreeMap<>();
    for (final TestRecord<byte[], byte[]> record : engine.rawRecords(topic)) {
      final HistoryChangelog.Entry entry =
          HistoryChangelog.read(topic, MINUTE, record.key(), record.value());
      if (entry.group().equals(new io.quotaflow.engine.store.GroupId(EAST, "team-a"))) {
        read.put(entry.start(), HistoryRecords.window(entry.start(), entry.window()));
      }
    }

    final Instant end = engine.now();
    assertThat(read).isNotEmpty();
    assertThat(
            io.quotaflow.history.HistorySeries.steps(
                start,
                start.plus(Duration.ofMinutes(5)),
                MINUTE,
                MINUTE,
                GroupLevels.NONE,
                new ArrayList<>(read.values()),
                end))
        .isEqualTo(teamAMinutes(start, end));
  }

  /**
   * Issue 40: two days on, the fine tier (a day and two hours) no longer holds the scripted hour;
   * the coarse tier answers it in hours, to the unit-millisecond of the emitted records, and a
   * query in minutes there is refused with the coarse step named. A recent period of a group quiet
   * since then reads its levels in force from the coarse tier.
   */
  @Test
  void aPeriodOlderThanTheFineRetentionIsAnsweredFromTheCoarseTier() {
    final Instant start = scriptedTimeline();
    final Duration hour = Duration.ofHours(1);
    final Instant first = io.quotaflow.history.HistoryWindow.windowOf(start, hour);
    engine.advance(Duration.ofDays(2));
    // A change now moves the stores' time on: the fine one drops the scripted hour.
    engine.putPod(EAST, NS, pod("later").group("team-b").running("n1").cpu(1_000)).recompute();
    final Instant now = engine.now();
    try (var fine =
        engine
            .<io.quotaflow.engine.store.GroupId, Object>windowStore(
                TopologyNames.historyStore(MINUTE))
            .fetch(
                new io.quotaflow.engine.store.GroupId(EAST, "team-a"), first, first.plus(hour))) {
      assertThat(fine.hasNext()).as("the fine tier no longer holds the hour").isFalse();
    }

    final List<HistoryStep> hours =
        engine.history().steps(EAST, "team-a", first, first.plus(hour.multipliedBy(2)), hour, now);

    assertThat(hours).hasSize(2);
    for (final HistoryStep step : hours) {
      for (final HistoryMetric metric : HistoryMetric.values()) {
        assertThat(step.integrals().get(ResourceList.CPU, metric))
            .as("%s over [%s, %s)", metric, step.start(), step.end())
            .isEqualTo(byHand(metric, step.start(), step.end()));
      }
    }
    assertThat(hours.get(0).integrals().get(ResourceList.CPU, HistoryMetric.BORROWED)).isPositive();
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                engine
                    .history()
                    .steps(EAST, "team-a", first, first.plus(hour), MINUTE, engine.now()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PT1H")
        .hasMessageContaining("coarse");

    // team-a has been quiet for two days: the fine tier keeps no change of it, the coarse tier
    // tells its min (4 cores) in force over the last minute.
    final Instant minute = io.quotaflow.history.HistoryWindow.windowOf(now, MINUTE).minus(MINUTE);
    final List<HistoryStep> recent =
        engine.history().steps(EAST, "team-a", minute, minute.plus(MINUTE), MINUTE, now);
    assertThat(recent.get(0).integrals().get(ResourceList.CPU, HistoryMetric.MIN))
        .isEqualTo(BigInteger.valueOf(4_000L * MINUTE.toMillis()));
  }

  private List<HistoryStep> teamAMinutes(Instant start, Instant now) {
    return engine
        .history()
        .steps(EAST, "team-a", start, start.plus(Duration.ofMinutes(7)), MINUTE, now);
  }

  /**
   * team-a (min 4, max 8 cores): a 2-core pod from the start, a 4-core pod from 60 s to 120 s (uses
   * 6: borrows 2), nothing after 180 s. Returns the first minute's start.
   */
  private Instant scriptedTimeline() {
    final Instant start = engine.now();
    assertThat(start.toEpochMilli() % MINUTE.toMillis()).isZero();
    engine
        .putNode(EAST, "n1", node(10_000))
        .putQuota(EAST, "team-a", quota().min(cpu(4_000)).max(cpu(8_000)).build())
        .putQuota(EAST, "team-b", quota().min(cpu(4_000)).max(cpu(8_000)).build())
        .putPod(EAST, NS, pod("small").group("team-a").running("n1").cpu(2_000))
        .recompute();
    collect();
    engine.advance(
        MINUTE.minus(
            engine.now().toEpochMilli() - start.toEpochMilli(),
            java.time.temporal.ChronoUnit.MILLIS));
    engine.putPod(EAST, NS, pod("big").group("team-a").running("n1").cpu(4_000)).recompute();
    collect();
    // The deletion's recomputation lands on 120 s exactly.
    engine.advance(Duration.ofSeconds(60).minus(Duration.ofMillis(200)));
    engine.deletePod(EAST, NS, "big").recompute();
    collect();
    engine.advance(Duration.ofSeconds(60));
    engine.deletePod(EAST, NS, "small").recompute();
    collect();
    engine.advance(Duration.ofSeconds(90));
    return start;
  }

  private void collect() {
    for (final TestRecord<QuotaKey, GroupRuntime> record : engine.runtimeRecords()) {
      if (record.key().getCluster().equals(EAST) && record.key().getName().equals("team-a")) {
        teamA.add(record);
      }
    }
  }

  /** The integral over [from, to) of the levels the emitted records state, each until the next. */
  private BigInteger byHand(HistoryMetric metric, Instant from, Instant to) {
    BigInteger sum = BigInteger.ZERO;
    for (int i = 0; i < teamA.size(); i++) {
      final long begin = teamA.get(i).timestamp();
      final long end = i + 1 < teamA.size() ? teamA.get(i + 1).timestamp() : Long.MAX_VALUE;
      final long overlap = Math.min(end, to.toEpochMilli()) - Math.max(begin, from.toEpochMilli());
      if (overlap > 0) {
        final GroupLevels levels = HistoryRecords.levels(teamA.get(i).value());
        sum =
            sum.add(
                BigInteger.valueOf(levels.level(metric, ResourceList.CPU))
                    .multiply(BigInteger.valueOf(overlap)));
      }
    }
    return sum;
  }
}
