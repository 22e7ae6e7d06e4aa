package io.quotaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Fresh events are recomputed at every tick; a backlog is held back in proportion to its age: once
 * per half its age (from one backlog interval to the maximum interval), and until its events pause
 * for a twentieth of its age (at most one backlog interval).
 */
class RecomputePacerTest {
  private static final long T = 1_000_000L;
  private static final String EAST = "east";

  private final RecomputePacer pacer =
      new RecomputePacer(Duration.ofSeconds(1), Duration.ofSeconds(10));

  @Test
  void aClusterNeverSeenIsDue() {
    assertThat(pacer.due(EAST, T)).isTrue();
  }

  @Test
  void freshEventsAreDueAtEveryTick() {
    pacer.recomputed(EAST, T);
    pacer.arrived(EAST, T + 50, T + 50);

    assertThat(pacer.due(EAST, T + 100)).isTrue();
  }

  @Test
  void aBacklogOfFourSecondsIsRecomputedEveryTwoSecondsWhileItsEventsKeepComing() {
    pacer.recomputed(EAST, T);
    for (long tick = T + 100; tick < T + 2_100; tick += 100) {
      pacer.arrived(EAST, tick - 4_000, tick - 10);
      assertThat(pacer.due(EAST, tick)).as("tick at +%d ms", tick - T).isFalse();
    }
    pacer.arrived(EAST, T + 2_100 - 4_000, T + 2_090);

    assertThat(pacer.due(EAST, T + 2_100)).as("half the age after the episode began").isTrue();
  }

  @Test
  void anOldBacklogIsRecomputedOncePerMaximumInterval() {
    pacer.recomputed(EAST, T);
    long tick = T + 100;
    for (; tick < T + 10_100; tick += 100) {
      pacer.arrived(EAST, tick - 600_000, tick - 10);
      assertThat(pacer.due(EAST, tick)).as("tick at +%d ms", tick - T).isFalse();
    }
    pacer.arrived(EAST, tick - 600_000, tick - 10);
    assertThat(pacer.due(EAST, tick)).isTrue();
    pacer.recomputed(EAST, tick);
    pacer.arrived(EAST, tick + 100 - 600_000, tick + 90);

    assertThat(pacer.due(EAST, tick + 100)).as("the next interval begins").isFalse();
  }

  @Test
  void theEndOfABacklogIsRecomputedOnceItsEventsPauseForATwentiethOfItsAge() {
    pacer.recomputed(EAST, T);
    pacer.arrived(EAST, T + 100 - 4_000, T + 100);

    assertThat(pacer.due(EAST, T + 200)).as("100 ms without events").isFalse();
    assertThat(pacer.due(EAST, T + 320))
        .as("220 ms without events: a 4.2 s backlog ended")
        .isTrue();
  }

  @Test
  void aPauseInALongBacklogIsNotItsEndUntilItLastsABacklogInterval() {
    pacer.recomputed(EAST, T);
    pacer.arrived(EAST, T - 600_000, T);

    assertThat(pacer.due(EAST, T + 500)).as("the consumer waiting for its next fetch").isFalse();
    assertThat(pacer.due(EAST, T + 1_000)).isTrue();
  }

  @Test
  void aBacklogReadInAMomentIsComputedOnceComplete() {
    // Inputs published a few seconds before the engine started, read within 150 ms.
    for (long at = T; at <= T + 150; at += 50) {
      pacer.arrived(EAST, T - 5_000, at);
    }

    assertThat(pacer.due(EAST, T + 100)).as("still reading").isFalse();
    assertThat(pacer.due(EAST, T + 300)).as("paused 150 ms, less than 5 s / 20").isFalse();
    assertThat(pacer.due(EAST, T + 450)).as("paused 300 ms, more than 5.45 s / 20").isTrue();
  }

  @Test
  void anEventJustOlderThanTheIntervalCountsAsBacklogAndOneAsOldAsItDoesNot() {
    pacer.recomputed(EAST, T);
    pacer.arrived(EAST, T + 100 - 1_000, T + 90);
    assertThat(pacer.due(EAST, T + 100)).isTrue();

    pacer.recomputed(EAST, T + 100);
    pacer.arrived(EAST, T + 190 - 1_001, T + 190);
    assertThat(pacer.due(EAST, T + 200)).isFalse();
  }

  @Test
  void askingWhetherAClusterIsHeldBackChangesNothing() {
    pacer.recomputed(EAST, T);
    pacer.arrived(EAST, T - 60_000, T);

    assertThat(pacer.inBacklog(EAST, T + 100)).isTrue();
    assertThat(pacer.inBacklog(EAST, T + 100)).isTrue();
    assertThat(pacer.due(EAST, T + 100)).isFalse();
    assertThat(pacer.inBacklog(EAST, T + 1_000)).as("no event for a backlog interval").isFalse();
  }

  @Test
  void clustersArePacedApart() {
    pacer.recomputed(EAST, T);
    pacer.recomputed("west", T);
    pacer.arrived(EAST, T - 60_000, T + 90);
    pacer.arrived("west", T + 90, T + 90);

    assertThat(pacer.due(EAST, T + 100)).isFalse();
    assertThat(pacer.due("west", T + 100)).isTrue();
  }

  @Test
  void withBothIntervalsAtOneTickEveryTickRecomputes() {
    final RecomputePacer off = new RecomputePacer(Duration.ofMillis(100), Duration.ofMillis(100));
    off.recomputed(EAST, T);
    off.arrived(EAST, T - 60_000, T + 90);
    off.arrived(EAST, T - 60_000, T + 190);

    assertThat(off.due(EAST, T + 200)).as("a tick after the backlog began").isTrue();
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
