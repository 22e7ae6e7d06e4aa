package io.quotaflow.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.history.HistoryTiers.Tier;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Section 23, two tiers: which one answers a period, and what it asks of the period. */
class HistoryTiersTest {

  private static final Duration MINUTE = Duration.ofMinutes(1);
  private static final Duration HOUR = Duration.ofHours(1);
  private static final HistoryTiers DEFAULTS =
      new HistoryTiers(MINUTE, Duration.ofDays(1), HOUR, Duration.ofDays(14));
  private static final Instant NOW = Instant.parse("2026-11-29T12:34:56.789Z");

  @Test
  void aPeriodWithinTheFineRetentionAndOneCoarseStepIsAnsweredFromTheFineTier() {
    final Instant since = NOW.minus(Duration.ofDays(1)).minus(HOUR);

    assertThat(DEFAULTS.fineSince(NOW)).isEqualTo(since);
    assertThat(DEFAULTS.tierFor(NOW.minus(Duration.ofMinutes(5)), NOW)).isEqualTo(Tier.FINE);
    assertThat(DEFAULTS.tierFor(since, NOW)).isEqualTo(Tier.FINE);
    assertThat(DEFAULTS.tierFor(since.minusMillis(1), NOW)).isEqualTo(Tier.COARSE);
    assertThat(DEFAULTS.tierFor(NOW.minus(Duration.ofDays(7)), NOW)).isEqualTo(Tier.COARSE);
  }

  @Test
  void aDayBackWidenedToWholeMinutesOrQuartersIsStillFine() {
    final Instant dayBack = NOW.minus(Duration.ofDays(1));

    assertThat(DEFAULTS.floor(dayBack, NOW)).isEqualTo(HistoryWindow.windowOf(dayBack, MINUTE));
    assertThat(
            DEFAULTS.forSteps(
                HistoryWindow.windowOf(dayBack, Duration.ofMinutes(15)),
                Duration.ofMinutes(15),
                NOW))
        .isEqualTo(Tier.FINE);
  }

  @Test
  void anOlderStartIsWidenedToWholeCoarseSteps() {
    final Instant weekBack = NOW.minus(Duration.ofDays(7));

    assertThat(DEFAULTS.floor(weekBack, NOW)).isEqualTo(HistoryWindow.windowOf(weekBack, HOUR));
    assertThat(DEFAULTS.step(DEFAULTS.tierFor(DEFAULTS.floor(weekBack, NOW), NOW))).isEqualTo(HOUR);
  }

  @Test
  void anOlderPeriodNeedsAStepThatIsAMultipleOfTheCoarseStep() {
    final Instant weekBack = HistoryWindow.windowOf(NOW.minus(Duration.ofDays(7)), HOUR);

    assertThat(DEFAULTS.forSteps(weekBack, Duration.ofHours(3), NOW)).isEqualTo(Tier.COARSE);
    assertThatThrownBy(() -> DEFAULTS.forSteps(weekBack, Duration.ofMinutes(15), NOW))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("step PT15M is not a multiple of PT1H")
        .hasMessageContaining("coarse history");
    assertThatThrownBy(() -> DEFAULTS.forSteps(weekBack.plus(MINUTE), Duration.ofHours(1), NOW))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("multiple of the step");
  }

  @Test
  void anOlderReportPeriodMustStartAndEndAtWholeCoarseSteps() {
    final Instant weekBack = HistoryWindow.windowOf(NOW.minus(Duration.ofDays(7)), HOUR);

    assertThat(DEFAULTS.forTotals(weekBack, weekBack.plus(Duration.ofDays(1)), NOW))
        .isEqualTo(Tier.COARSE);
    assertThatThrownBy(
            () -> DEFAULTS.forTotals(weekBack, weekBack.plus(Duration.ofMinutes(30)), NOW))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("multiples of PT1H");
    final Instant recent = HistoryWindow.windowOf(NOW, MINUTE).minus(Duration.ofMinutes(30));
    assertThat(DEFAULTS.forTotals(recent, recent.plus(MINUTE), NOW)).isEqualTo(Tier.FINE);
  }

  @Test
  void theFineStoreKeepsTwoCoarseStepsMoreThanTheFineRetention() {
    assertThat(DEFAULTS.fineKept()).isEqualTo(Duration.ofHours(26));
    assertThat(DEFAULTS.kept(Tier.FINE)).isEqualTo(Duration.ofHours(26));
    assertThat(DEFAULTS.kept(Tier.COARSE)).isEqualTo(Duration.ofDays(14));
  }

  @Test
  void tiersOutOfOrderAreRefused() {
    assertThatThrownBy(() -> new HistoryTiers(HOUR, Duration.ofDays(1), HOUR, Duration.ofDays(14)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () ->
                new HistoryTiers(
                    Duration.ofMinutes(7), Duration.ofDays(1), HOUR, Duration.ofDays(14)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> new HistoryTiers(MINUTE, Duration.ofMinutes(30), HOUR, Duration.ofDays(14)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new HistoryTiers(MINUTE, Duration.ofDays(2), HOUR, Duration.ofDays(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
