package io.quotaflow.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.source.PodGroupWatch;
import io.quotaflow.status.StatusMode;
import io.quotaflow.status.StatusSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConnectSettingsTest {

  @Test
  void theMetricsEndpointListensOn9404ByDefault() {
    assertThat(ConnectConfig.builder().build().get(ConnectSettings.METRICS_PORT)).isEqualTo(9404);
  }

  @Test
  void minusOneTurnsTheMetricsEndpointOffAndZeroPicksAFreePort() {
    assertThat(metricsPort("-1")).isEqualTo(ConnectSettings.METRICS_OFF);
    assertThat(metricsPort("0")).isZero();
    assertThat(metricsPort("65535")).isEqualTo(65535);
  }

  @Test
  void theMetricsPortIsReadFromTheEnvironment() {
    final ConnectConfig config =
        ConnectConfig.builder().environment(Map.of("QUOTAFLOW_METRICS_PORT", "9500")).build();

    assertThat(config.get(ConnectSettings.METRICS_PORT)).isEqualTo(9500);
  }

  @Test
  void aMetricsPortThatIsNoPortIsRejectedNamingTheKey() {
    for (final String text : new String[] {"-2", "70000", "65536", "abc", ""}) {
      assertThatThrownBy(() -> metricsPort(text))
          .as(text)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("metrics.port")
          .hasMessageContaining("-1 for off");
    }
  }

  @Test
  void theStatusWriterWritesAsKoordinatorByDefault() {
    final StatusSettings settings = StatusWriterSettings.status(ConnectConfig.builder().build());

    assertThat(settings.mode()).isEqualTo(StatusMode.KOORDINATOR);
    assertThat(settings.mode().writesStatus()).isTrue();
  }

  @Test
  void shadowModeWritesOnlyQuotaflowsAnnotationsAndNeverTheStatus() {
    final ConnectConfig config =
        ConnectConfig.builder().environment(Map.of("QUOTAFLOW_STATUS_MODE", "shadow")).build();
    final StatusMode mode = StatusWriterSettings.status(config).mode();

    assertThat(mode).isEqualTo(StatusMode.SHADOW);
    assertThat(mode.writesStatus()).isFalse();
    assertThat(mode.runtimeAnnotation()).isEqualTo("quotaflow.io/runtime");
    assertThat(mode.requestAnnotation()).isEqualTo("quotaflow.io/request");
  }

  @Test
  void aStatusModeThatIsNoModeIsRejectedNamingTheKeyAndTheChoices() {
    for (final String text : new String[] {"annotations", "off", ""}) {
      assertThatThrownBy(() -> ConnectConfig.builder().set("status.mode", text).build())
          .as(text)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("status.mode")
          .hasMessageContaining("koordinator")
          .hasMessageContaining("shadow");
    }
  }

  @Test
  void podGroupsAreWatchedWhereServedByDefaultAndTheSettingReachesTheSource() {
    assertThat(ConnectSettings.source(ConnectConfig.builder().build()).podGroups())
        .isEqualTo(PodGroupWatch.AUTO);
    assertThat(
            ConnectSettings.source(
                    ConnectConfig.builder()
                        .environment(Map.of("QUOTAFLOW_SOURCE_PODGROUPS", "false"))
                        .build())
                .podGroups())
        .isEqualTo(PodGroupWatch.NEVER);
    assertThatThrownBy(() -> ConnectConfig.builder().set("source.podgroups", "maybe").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("source.podgroups")
        .hasMessageContaining("auto, true or false");
  }

  private static int metricsPort(final String text) {
    return ConnectConfig.builder()
        .set("metrics.port", text)
        .build()
        .get(ConnectSettings.METRICS_PORT);
  }
}
