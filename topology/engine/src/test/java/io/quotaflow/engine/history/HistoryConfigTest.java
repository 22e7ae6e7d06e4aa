package io.quotaflow.engine.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.history.HistoryTiers;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The history's settings: the tiers they make, and each rule a bad combination breaks, named. */
class HistoryConfigTest {

  @Test
  void theDefaultsKeepMinutesForADayAndHoursForTwoWeeks() {
    assertThat(HistoryConfig.tiers(EngineConfig.defaults()))
        .contains(
            new HistoryTiers(
                Duration.ofMinutes(1),
                Duration.ofDays(1),
                Duration.ofHours(1),
                Duration.ofDays(14)));
    assertThat(HistoryConfig.step(EngineConfig.defaults())).contains(Duration.ofMinutes(1));
  }

  @Test
  void noHistoryNoTiers() {
    assertThat(HistoryConfig.tiers(config(Map.of("history.enabled", "false")))).isEmpty();
  }

  @Test
  void theCoarseStepMustBeALargerMultipleOfTheStep() {
    assertThatThrownBy(() -> HistoryConfig.tiers(config(Map.of("history.coarse.step", "90s"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("history.coarse.step (PT1M30S) must be a multiple of history.step");
    assertThatThrownBy(
            () ->
                HistoryConfig.tiers(
                    config(Map.of("history.step", "1h", "history.coarse.step", "1h"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("larger than it");
  }

  @Test
  void theFineRetentionMustHoldACoarseStep() {
    assertThatThrownBy(() -> HistoryConfig.tiers(config(Map.of("history.fine.retention", "30m"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(
            "history.fine.retention (PT30M) must be at least history.coarse.step (PT1H)");
  }

  @Test
  void theRetentionMustHoldTheFineRetention() {
    assertThatThrownBy(
            () ->
                HistoryConfig.tiers(
                    config(Map.of("history.fine.retention", "3d", "history.retention", "2d"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(
            "history.retention (PT48H) must be at least history.fine.retention (PT72H)");
  }

  private static EngineConfig config(Map<String, String> settings) {
    final EngineConfig.Builder builder = EngineConfig.builder();
    settings.forEach(builder::set);
    return builder.build();
  }
}
