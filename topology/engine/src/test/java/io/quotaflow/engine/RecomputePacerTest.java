package io.quotaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Fresh events are recomputed at every tick; a backlog at most once per backlog interval. */
class RecomputePacerTest {
  private static final long T = 1_000_000L;
  private static final String EAST = "east";

  private final RecomputePacer pacer = new RecomputePacer(Duration.ofSeconds(1));

  @Test
  void aClusterNeverSeenIsDue() {
    assertThat(pacer.due(EAST, T)).isTrue();
  }

  @Test
  void freshEventsAreDueAtEveryTick() {
    pacer.recomputed(EAST, T);
    pacer.arrived(EAST, T + 50, T);

    assertThat(pacer.due(EAST, T + 100)).isTrue();
  }

  @Test
  void aBacklogWaitsForTheBacklogIntervalWhileEventsKeepArriving() {
    pacer.recomputed(EAST, T);
    for (long tick = T + 100; tick < T + 1_000; tick += 100) {
      pacer.arrived(EAST, tick - 60_000, T);
      assertThat(pacer.due(EAST, tick)).as("tick at +%d ms", tick - T).isFalse();
    }
    pacer.arrived(EAST, T + 1_000 - 60_000, T);

    assertThat(pacer.due(EAST, T + 1_000)).isTrue();
  }

  @Test
  void theEndOfABacklogIsRecomputedAtTheNextTick() {
    pacer.recomputed(EAST, T);
    pacer.arrived(EAST, T - 60_000, T);
    assertThat(pacer.due(EAST, T + 100)).isFalse();

    assertThat(pacer.due(EAST, T + 200)).as("no event since the last tick").isTrue();
  }

  @Test
  void anEventJustOlderThanTheIntervalCountsAsBacklogAndOneAsOldAsItDoesNot() {
    pacer.recomputed(EAST, T);
    pacer.arrived(EAST, T + 100 - 1_000, T);
    assertThat(pacer.due(EAST, T + 100)).isTrue();

    pacer.recomputed(EAST, T + 100);
    pacer.arrived(EAST, T + 200 - 1_001, T);
    assertThat(pacer.due(EAST, T + 200)).isFalse();
  }

  @Test
  void askingWhetherAClusterIsInABacklogDoesNotCountAsATick() {
    pacer.recomputed(EAST, T);
    pacer.arrived(EAST, T - 60_000, T);

    assertThat(pacer.inBacklog(EAST, T + 100)).isTrue();
    assertThat(pacer.inBacklog(EAST, T + 100)).isTrue();
    assertThat(pacer.due(EAST, T + 100)).as("events arrived since the last tick").isFalse();
    assertThat(pacer.inBacklog(EAST, T + 1_000)).as("recomputed a full interval ago").isFalse();
  }

  @Test
  void clustersArePacedApart() {
    pacer.recomputed(EAST, T);
    pacer.recomputed("west", T);
    pacer.arrived(EAST, T - 60_000, T);
    pacer.arrived("west", T + 90, T);

    assertThat(pacer.due(EAST, T + 100)).isFalse();
    assertThat(pacer.due("west", T + 100)).isTrue();
  }

  @Test
  void aBacklogIntervalEqualToTheTickRecomputesAtEveryTick() {
    final RecomputePacer off = new RecomputePacer(Duration.ofMillis(100));
    off.recomputed(EAST, T);
    off.arrived(EAST, T - 60_000, T);

    assertThat(off.due(EAST, T + 100)).isTrue();
  }

  @Test
  void aClusterReadingABacklogHasNotCaughtUpUntilABacklogIntervalPassesWithoutOne() {
    pacer.arrived(EAST, T - 60_000, T);
    assertThat(pacer.caughtUp(EAST, T + 500)).isFalse();
    pacer.arrived(EAST, T - 59_000, T + 900);
    assertThat(pacer.caughtUp(EAST, T + 1_500)).as("a backlog event read 600 ms ago").isFalse();

    assertThat(pacer.caughtUp(EAST, T + 1_901)).isTrue();
  }

  @Test
  void freshEventsAndRecomputationsKeepAClusterCaughtUp() {
    assertThat(pacer.caughtUp(EAST, T)).as("never seen").isTrue();
    pacer.arrived(EAST, T - 200, T);
    pacer.recomputed(EAST, T);
    pacer.due(EAST, T + 100);

    assertThat(pacer.caughtUp(EAST, T + 100)).isTrue();
  }
}
