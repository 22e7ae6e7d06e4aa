package io.quotaflow.evict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class EvictionSettingsTest {

  @Test
  void theBackoffDoublesAfterEachRefusalUpToItsCap() {
    final EvictionSettings settings =
        settings(10, Duration.ofSeconds(1), Duration.ofSeconds(10), "g");

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
  void commandsExpireAfterTenMinutesByDefault() {
    assertThat(EvictionSettings.defaults().maxAge()).isEqualTo(Duration.ofMinutes(10));
    assertThat(EvictionSettings.defaults().withMaxAge(Duration.ofHours(1)).maxAge())
        .isEqualTo(Duration.ofHours(1));
  }

  @Test
  void aMaxAgeThatIsNotPositiveIsRejected() {
    final EvictionSettings defaults = EvictionSettings.defaults();

    assertThatThrownBy(() -> defaults.withMaxAge(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxAge");
    assertThatThrownBy(() -> defaults.withMaxAge(Duration.ofMinutes(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxAge");
  }

  @Test
  void nonsenseSettingsAreRejected() {
    assertThatThrownBy(() -> settings(0, Duration.ofSeconds(1), Duration.ofSeconds(1), "g"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> settings(1, Duration.ofSeconds(2), Duration.ofSeconds(1), "g"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> settings(1, Duration.ofSeconds(1), Duration.ofSeconds(1), " "))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** Settings that are valid but for what the arguments say: not dry, one request per second. */
  private static EvictionSettings settings(
      final int maxAttempts,
      final Duration backoff,
      final Duration maxBackoff,
      final String group) {
    return new EvictionSettings(
        false, maxAttempts, backoff, maxBackoff, 1, 1, group, Duration.ofMinutes(10));
  }
}
