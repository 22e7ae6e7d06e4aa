package io.quotaflow.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class StatusSettingsTest {

  @Test
  void theDefaultsWriteAsKoordinatorDoes() {
    assertThat(StatusSettings.defaults().mode()).isEqualTo(StatusMode.KOORDINATOR);
    assertThat(StatusSettings.defaults().withGroupId("g").mode()).isEqualTo(StatusMode.KOORDINATOR);
  }

  @Test
  void aModeIsRequiredAndKeptByTheOtherWithers() {
    final StatusSettings shadow = StatusSettings.defaults().withMode(StatusMode.SHADOW);

    assertThat(shadow.withGroupId("g").mode()).isEqualTo(StatusMode.SHADOW);
    assertThatThrownBy(
            () -> new StatusSettings(Duration.ofSeconds(1), 1.0, 1, Duration.ofHours(1), "g", null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("mode");
  }
}
