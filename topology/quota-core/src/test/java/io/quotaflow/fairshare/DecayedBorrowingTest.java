package io.quotaflow.fairshare;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.history.GroupLevels;
import io.quotaflow.history.HistoryWindow;
import io.quotaflow.quota.ResourceList;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Folding the history's windows into decayed borrowing (docs/semantics.md section 24). */
class DecayedBorrowingTest {

  private static final String GPU = "nvidia.com/gpu";
  private static final Duration HOUR = Duration.ofHours(1);
  private static final HalfLife DECAY = HalfLife.of(HOUR, HOUR);
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static GroupLevels using(long used) {
    return new GroupLevels(
        ResourceList.of(GPU, used),
        ResourceList.of(GPU, used),
        ResourceList.of(GPU, used),
        ResourceList.of(GPU, 2));
  }

  /** Section 24's worked example: min 2, 10 GPUs used for the first hour, then 2. */
  @Test
  void workedExampleEightBorrowedForAnHourAverageFourThenTwo() {
    final Map<Instant, HistoryWindow> history = new HashMap<>();
    history.put(T0, HistoryWindow.opened(T0, HOUR, using(2), using(10)));
    history.put(T0.plus(HOUR), HistoryWindow.opened(T0.plus(HOUR), HOUR, using(10), using(2)));

    final DecayedBorrowing start = DecayedBorrowing.startingAt(T0, using(2));
    final DecayedBorrowing first =
        start.foldThrough(T0.plus(HOUR), DECAY, at -> Optional.ofNullable(history.get(at)));
    assertThat(first.decayed()).containsEntry(GPU, BigInteger.valueOf(28_800_000L));
    assertThat(first.average(DECAY)).isEqualTo(ResourceList.of(GPU, 4));
    assertThat(first.lastBorrowed()).isEqualTo(ResourceList.of(GPU, 8));

    final DecayedBorrowing second =
        first.foldThrough(
            T0.plus(HOUR.multipliedBy(2)), DECAY, at -> Optional.ofNullable(history.get(at)));
    assertThat(second.average(DECAY)).isEqualTo(ResourceList.of(GPU, 2));
    assertThat(second.lastBorrowed()).isEqualTo(ResourceList.empty());
    assertThat(second.foldedThrough()).isEqualTo(T0.plus(HOUR.multipliedBy(2)));
  }

  @Test
  void aWindowWithoutARecordHoldsTheLastLevelForTheWholeStep() {
    final DecayedBorrowing start = DecayedBorrowing.startingAt(T0, using(10));
    final DecayedBorrowing folded =
        start.foldThrough(T0.plus(HOUR.multipliedBy(2)), DECAY, at -> Optional.empty());
    // 28.8M, then 14.4M + 28.8M = 43.2M: an average of 6 (approaching 8).
    assertThat(folded.decayed()).containsEntry(GPU, BigInteger.valueOf(43_200_000L));
    assertThat(folded.average(DECAY)).isEqualTo(ResourceList.of(GPU, 6));
  }

  @Test
  void anUnfinishedWindowIsNotFolded() {
    final DecayedBorrowing start = DecayedBorrowing.startingAt(T0, using(10));
    final DecayedBorrowing same =
        start.foldThrough(T0.plus(HOUR).minusMillis(1), DECAY, at -> Optional.empty());
    assertThat(same).isEqualTo(start);
  }

  @Test
  void borrowingDecaysToNothingAndIsThenForgotten() {
    DecayedBorrowing memory =
        DecayedBorrowing.startingAt(T0, using(10))
            .foldThrough(T0.plus(HOUR), DECAY, at -> Optional.empty());
    memory = new DecayedBorrowing(memory.foldedThrough(), memory.decayed(), ResourceList.empty());
    assertThat(memory.isForgotten()).isFalse();
    // 28.8M halves each hour: below 1 after 25 halvings.
    memory = memory.foldThrough(T0.plus(HOUR.multipliedBy(30)), DECAY, at -> Optional.empty());
    assertThat(memory.decayed()).isEmpty();
    assertThat(memory.isForgotten()).isTrue();
  }
}
