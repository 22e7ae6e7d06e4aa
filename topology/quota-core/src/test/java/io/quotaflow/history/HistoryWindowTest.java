package io.quotaflow.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.quota.ResourceList;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The worked examples of docs/semantics.md section 23. */
class HistoryWindowTest {

  private static final Duration MINUTE = Duration.ofMinutes(1);
  private static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");

  private static GroupLevels cpu(long request, long used, long runtime, long min) {
    return new GroupLevels(
        ResourceList.of(ResourceList.CPU, request),
        ResourceList.of(ResourceList.CPU, used),
        ResourceList.of(ResourceList.CPU, runtime),
        ResourceList.of(ResourceList.CPU, min));
  }

  @Test
  void aGroupBorrowingTwoCoresForThirtySecondsOfAMinute() {
    // min 4 cores; at 10:00:15 it uses 6 (borrows 2), at 10:00:45 back to 4.
    final GroupLevels within = cpu(4_000, 4_000, 4_000, 4_000);
    final GroupLevels borrowing = cpu(6_000, 6_000, 6_000, 4_000);
    final HistoryWindow window =
        HistoryWindow.opened(T0.plusSeconds(15), MINUTE, within, borrowing)
            .changed(T0.plusSeconds(45), within);

    final List<HistoryStep> steps =
        HistorySeries.steps(
            T0, T0.plus(MINUTE), MINUTE, MINUTE, within, List.of(window), T0.plusSeconds(600));

    assertThat(steps).hasSize(1);
    final HistoryStep minute = steps.get(0);
    // 2,000 milli-cores for 30,000 ms.
    assertThat(minute.integrals().get(ResourceList.CPU, HistoryMetric.BORROWED))
        .isEqualTo(BigInteger.valueOf(60_000_000L));
    assertThat(minute.average(ResourceList.CPU, HistoryMetric.BORROWED)).isEqualTo(1_000);
    assertThat(minute.average(ResourceList.CPU, HistoryMetric.USED)).isEqualTo(5_000);
    assertThat(minute.average(ResourceList.CPU, HistoryMetric.LENT)).isZero();
  }

  @Test
  void aQuietWindowHoldsTheLevelsOfTheLastChangeBeforeIt() {
    final HistoryWindow first =
        HistoryWindow.opened(T0.plusSeconds(30), MINUTE, GroupLevels.NONE, cpu(0, 0, 1_000, 3_000));

    final List<HistoryStep> steps =
        HistorySeries.steps(
            T0,
            T0.plus(Duration.ofMinutes(3)),
            MINUTE,
            MINUTE,
            GroupLevels.NONE,
            List.of(first),
            T0.plus(Duration.ofMinutes(10)));

    // Lent: min 3 cores - runtime 1 core = 2 cores, from 10:00:30.
    assertThat(steps)
        .extracting(step -> step.average(ResourceList.CPU, HistoryMetric.LENT))
        .containsExactly(1_000L, 2_000L, 2_000L);
  }

  @Test
  void thePresentCutsTheLastStepShort() {
    final List<HistoryStep> steps =
        HistorySeries.steps(
            T0,
            T0.plus(Duration.ofMinutes(5)),
            MINUTE,
            MINUTE,
            cpu(1, 1, 1, 1),
            List.of(),
            T0.plusSeconds(90));

    assertThat(steps).hasSize(2);
    assertThat(steps.get(1).end()).isEqualTo(T0.plusSeconds(90));
    assertThat(steps.get(1).integrals().get(ResourceList.CPU, HistoryMetric.USED))
        .isEqualTo(BigInteger.valueOf(30_000));
  }

  @Test
  void aChangeDatedBeforeTheLastOneCountsFromTheLastOne() {
    final HistoryWindow window =
        HistoryWindow.opened(T0.plusSeconds(40), MINUTE, GroupLevels.NONE, cpu(0, 1_000, 0, 0))
            .changed(T0.plusSeconds(20), cpu(0, 3_000, 0, 0));

    assertThat(window.lastChange()).isEqualTo(T0.plusSeconds(40));
    assertThat(window.through(T0.plus(MINUTE)).get(ResourceList.CPU, HistoryMetric.USED))
        .isEqualTo(BigInteger.valueOf(3_000L * 20_000));
  }

  @Test
  void aStepThatIsNotAMultipleOfTheStoredOneIsRefused() {
    assertThatThrownBy(
            () ->
                HistorySeries.steps(
                    T0,
                    T0.plus(MINUTE),
                    Duration.ofSeconds(90),
                    MINUTE,
                    GroupLevels.NONE,
                    List.of(),
                    T0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("multiple of the stored step");
  }
}
