package io.quotaflow.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.events.EventSettings;
import org.junit.jupiter.api.Test;

class EventSettingsConfigTest {

  @Test
  void eventsAreOnByDefaultWithABurstOfFiveThenOnePerMinutePerObject() {
    assertThat(ConnectSettings.events(ConnectConfig.builder().build()))
        .isEqualTo(new EventSettings(true, 1.0, 5));
  }

  @Test
  void eventsCanBeTurnedOffAndTheirRateSet() {
    final ConnectConfig config =
        ConnectConfig.builder()
            .set("events.enabled", "false")
            .set("events.per.object.per.minute", "0.5")
            .set("events.per.object.burst", "2")
            .build();

    assertThat(ConnectSettings.events(config)).isEqualTo(new EventSettings(false, 0.5, 2));
  }

  @Test
  void aRateOrBurstThatIsNotPositiveIsRejectedAtStartNamingTheKey() {
    for (final String[] setting :
        new String[][] {
          {"events.per.object.per.minute", "0"},
          {"events.per.object.per.minute", "-1"},
          {"events.per.object.per.minute", "x"},
          {"events.per.object.burst", "0"},
          {"events.enabled", "maybe"}
        }) {
      assertThatThrownBy(
              () ->
                  ConnectSettings.events(
                      ConnectConfig.builder().set(setting[0], setting[1]).build()))
          .as(setting[0] + "=" + setting[1])
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(setting[0]);
    }
  }
}
