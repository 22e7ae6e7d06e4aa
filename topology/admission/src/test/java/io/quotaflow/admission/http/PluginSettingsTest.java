package io.quotaflow.admission.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.admission.http.peers.ForwardPolicy;
import io.quotaflow.admission.machine.AdmissionMode;
import io.quotaflow.admission.machine.FailurePolicy;
import io.quotaflow.config.ConfigLoader;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PluginSettingsTest {

  @Test
  void defaultsAreEnforceFailOpenThirtySecondInFlightHoldsAndKubeSystemExcluded() {
    final PluginConfig config = PluginSettings.config(Map.of("admission.plain.http", "true"));

    assertThat(config.mode()).isEqualTo(AdmissionMode.ENFORCE);
    assertThat(config.failurePolicy()).isEqualTo(FailurePolicy.FAIL_OPEN);
    assertThat(config.holdTtl()).isEqualTo(Duration.ofSeconds(30));
    assertThat(config.excludedNamespaces()).containsExactly("kube-system");
    assertThat(config.port()).isEqualTo(8443);
    assertThat(config.staleness())
        .isEqualTo(new PluginConfig.Staleness(Duration.ofSeconds(30), Duration.ofSeconds(1)));
  }

  @Test
  void aGangHoldWaitsSixtySecondsByDefaultAndTheSettingChangesIt() {
    assertThat(PluginSettings.config(Map.of("admission.plain.http", "true")).gangHoldTtl())
        .isEqualTo(Duration.ofSeconds(60))
        .isEqualTo(io.quotaflow.admission.inflight.ClusterAdmissions.DEFAULT_GANG_HOLD_TTL);
    assertThat(
            PluginSettings.config(
                    Map.of("admission.plain.http", "true", "admission.gang.hold.ttl", "2m"))
                .gangHoldTtl())
        .isEqualTo(Duration.ofMinutes(2));
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
        .hasMessageContaining("admission.inflight.ttl");
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
                "admission.inflight.ttl", "45s"));

    assertThat(config.mode()).isEqualTo(AdmissionMode.WARN);
    assertThat(config.failurePolicy()).isEqualTo(FailurePolicy.FAIL_CLOSED);
    assertThat(config.excludedNamespaces()).containsExactlyInAnyOrder("kube-system", "monitoring");
    assertThat(config.holdTtl()).isEqualTo(Duration.ofSeconds(45));
    assertThatThrownBy(
            () ->
                PluginSettings.config(
                    Map.of("admission.plain.http", "true", "admission.mode", "strict")))
        .hasMessageContaining("admission.mode")
        .hasMessageContaining("enforce, warn, off");
  }

  @Test
  void theFormerReservationKeysStillSetTheInFlightHoldsAsDeprecatedAliases() {
    final PluginConfig old =
        PluginSettings.config(
            Map.of(
                "admission.plain.http", "true",
                "admission.reservation.ttl", "45s",
                "admission.reservation.sweep.interval", "1s"));

    assertThat(old.holdTtl()).isEqualTo(Duration.ofSeconds(45));
    assertThat(old.sweepInterval()).isEqualTo(Duration.ofSeconds(1));
    assertThatThrownBy(
            () ->
                PluginSettings.config(
                    Map.of("admission.plain.http", "true", "admission.reservation.ttl", "5s")))
        .as("the staleness check names the key to use")
        .hasMessageContaining("admission.max.staleness")
        .hasMessageContaining("admission.inflight.ttl");
  }

  @Test
  void theInFlightKeysWinOverTheirDeprecatedAliases() {
    final PluginConfig both =
        PluginSettings.config(
            Map.of(
                "admission.plain.http", "true",
                "admission.inflight.ttl", "40s",
                "admission.reservation.ttl", "45s",
                "admission.inflight.sweep.interval", "500ms",
                "admission.reservation.sweep.interval", "1s"));

    assertThat(both.holdTtl()).isEqualTo(Duration.ofSeconds(40));
    assertThat(both.sweepInterval()).isEqualTo(Duration.ofMillis(500));
  }

  @Test
  void theFormerEnvironmentVariablesReachThePluginThroughTheEnginesSources() {
    // As the engine reads them: the plugin's variables pass through to PluginSettings.config.
    final Map<String, String> engine =
        ConfigLoader.of(List.of())
            .environment(
                Map.of(
                    "QUOTAFLOW_ADMISSION_RESERVATION_TTL", "45s",
                    "QUOTAFLOW_ADMISSION_INFLIGHT_SWEEP_INTERVAL", "1s",
                    "QUOTAFLOW_ADMISSION_PLAIN_HTTP", "true"),
                PluginSettings.ALL)
            .build()
            .passThrough();

    final PluginConfig config = PluginSettings.config(engine);

    assertThat(config.holdTtl()).isEqualTo(Duration.ofSeconds(45));
    assertThat(config.sweepInterval()).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void aCertificateWithoutItsKeyIsRefused() {
    assertThatThrownBy(
            () -> PluginSettings.config(Map.of("admission.tls.cert.file", "/etc/tls/tls.crt")))
        .hasMessageContaining("admission.tls.key.file");
  }

  @Test
  void forwardingHasAWholeRequestTimeoutAndABreakerPerPeer() {
    assertThat(PluginSettings.forwarding(Map.of())).isEqualTo(ForwardPolicy.DEFAULTS);
    assertThat(
            PluginSettings.forwarding(
                Map.of(
                    "admission.forward.timeout", "300ms",
                    "admission.forward.breaker.failures", "5",
                    "admission.forward.breaker.retry", "2s")))
        .isEqualTo(new ForwardPolicy(Duration.ofMillis(300), 5, Duration.ofSeconds(2)));
    assertThatThrownBy(
            () -> PluginSettings.forwarding(Map.of("admission.forward.breaker.failures", "0")))
        .hasMessageContaining("admission.forward.breaker.failures");
    assertThatThrownBy(() -> PluginSettings.forwarding(Map.of("admission.forward.timeout", "0s")))
        .hasMessageContaining("admission.forward.timeout");
    assertThatThrownBy(
            () -> PluginSettings.forwarding(Map.of("admission.forward.breaker.retry", "0s")))
        .hasMessageContaining("admission.forward.breaker.retry");
  }
}
