package io.quotaflow.evict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class EvictionSettingsTest {

  @Test
  void theBackoffDoublesAfterEachRefusalUpToItsCap() {
    final EvictionSettings settings =
        new EvictionSettings(false, 10, Duration.ofSeconds(1), Duration.ofSeconds(10), 1, 1, "g");

    assertThat(settings.backoffAfter(1)).isEqualTo(Duration.ofSeconds(1));
    assertThat(settings.backoffAfter(2)).isEqualTo(Duration.ofSeconds(2));
    assertThat(settings.backoffAfter(3)).isEqualTo(Duration.ofSeconds(4));
    assertThat(settings.backoffAfter(4)).isEqualTo(Duration.ofSeconds(8));
    assertThat(settings.backoffAfter(5)).isEqualTo(Duration.ofSeconds(10));
    assertThat(settings.backoffAfter(60)).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void theDefaultsWaitAboutHalfAMinuteBeforeGivingUp() {
    final EvictionSettings settings = EvictionSettings.defaults();
    Duration total = Duration.ZERO;
    for (int attempt = 1; attempt < settings.maxAttempts(); attempt++) {
      total = total.plus(settings.backoffAfter(attempt));
    }

    assertThat(total).isEqualTo(Duration.ofSeconds(31));
    assertThat(settings.dryRun()).isFalse();
  }

  @Test
  void nonsenseSettingsAreRejected() {
    assertThatThrownBy(
            () ->
                new EvictionSettings(
                    false, 0, Duration.ofSeconds(1), Duration.ofSeconds(1), 1, 1, "g"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () ->
                new EvictionSettings(
                    false, 1, Duration.ofSeconds(2), Duration.ofSeconds(1), 1, 1, "g"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () ->
                new EvictionSettings(
                    false, 1, Duration.ofSeconds(1), Duration.ofSeconds(1), 1, 1, " "))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
