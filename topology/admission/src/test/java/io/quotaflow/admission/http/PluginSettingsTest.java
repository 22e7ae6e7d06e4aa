package io.quotaflow.admission.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PluginSettingsTest {

  @Test
  void defaultsAreEnforceFailOpenThirtySecondReservationsAndKubeSystemExcluded() {
    final PluginConfig config = PluginSettings.config(Map.of("admission.plain.http", "true"));

    assertThat(config.mode()).isEqualTo(AdmissionMode.ENFORCE);
    assertThat(config.failurePolicy()).isEqualTo(FailurePolicy.FAIL_OPEN);
    assertThat(config.reservationTtl()).isEqualTo(Duration.ofSeconds(30));
    assertThat(config.excludedNamespaces()).containsExactly("kube-system");
    assertThat(config.port()).isEqualTo(8443);
    assertThat(config.staleness())
        .isEqualTo(new PluginConfig.Staleness(Duration.ofSeconds(30), Duration.ofSeconds(1)));
  }

  @Test
  void theMaxStalenessIsCheckedAtStartAndABadOneNamesItsKey() {
    assertThat(
            PluginSettings.config(
                    Map.of("admission.plain.http", "true", "admission.max.staleness", "5s"))
                .staleness()
                .max())
        .isEqualTo(Duration.ofSeconds(5));
    assertThatThrownBy(
            () ->
                PluginSettings.config(
                    Map.of("admission.plain.http", "true", "admission.max.staleness", "0s")))
        .hasMessageContaining("admission.max.staleness");
    assertThatThrownBy(
            () ->
                PluginSettings.config(
                    Map.of("admission.plain.http", "true", "admission.max.staleness", "1m")))
        .hasMessageContaining("admission.max.staleness")
        .hasMessageContaining("admission.reservation.ttl");
    assertThatThrownBy(
            () ->
                PluginSettings.config(
                    Map.of(
                        "admission.plain.http", "true",
                        "admission.max.staleness", "2s",
                        "admission.state.refresh.interval", "2s")))
        .hasMessageContaining("admission.max.staleness")
        .hasMessageContaining("admission.state.refresh.interval");
  }

  @Test
  void valuesAreTypedAndABadOneNamesItsKey() {
    final PluginConfig config =
        PluginSettings.config(
            Map.of(
                "admission.plain.http", "true",
                "admission.mode", "warn",
                "admission.failure.policy", "fail-closed",
                "admission.excluded.namespaces", "kube-system, monitoring",
                "admission.reservation.ttl", "45s"));

    assertThat(config.mode()).isEqualTo(AdmissionMode.WARN);
    assertThat(config.failurePolicy()).isEqualTo(FailurePolicy.FAIL_CLOSED);
    assertThat(config.excludedNamespaces()).containsExactlyInAnyOrder("kube-system", "monitoring");
    assertThat(config.reservationTtl()).isEqualTo(Duration.ofSeconds(45));
    assertThatThrownBy(
            () ->
                PluginSettings.config(
                    Map.of("admission.plain.http", "true", "admission.mode", "strict")))
        .hasMessageContaining("admission.mode")
        .hasMessageContaining("enforce, warn, off");
  }

  @Test
  void aCertificateWithoutItsKeyIsRefused() {
    assertThatThrownBy(
            () -> PluginSettings.config(Map.of("admission.tls.cert.file", "/etc/tls/tls.crt")))
        .hasMessageContaining("admission.tls.key.file");
  }
}
