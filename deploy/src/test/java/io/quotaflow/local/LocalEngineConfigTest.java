package io.quotaflow.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.admission.http.PluginSettings;
import io.quotaflow.config.QuotaSettings;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.config.HistorySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** What reaches the engine of {@code local} from {@code --config}, {@code --set} and options. */
class LocalEngineConfigTest {
  private static final Path DATA = Path.of("/tmp/quotaflow-local-test");

  @Test
  void theUsersSettingsReachTheEngineOverLocalsDefaults() {
    final EngineConfig config =
        config(
            Map.of(
                "quota.guarantee.usage", "true",
                "revoke.check.interval", "2s",
                "commit.interval.ms", "250"),
            Optional.empty(),
            Optional.empty());

    assertThat(config.get(QuotaSettings.GUARANTEE_USAGE)).isTrue();
    assertThat(config.get(EngineSettings.REVOKE_CHECK_INTERVAL)).isEqualTo(Duration.ofSeconds(2));
    assertThat(config.kafka("commit.interval.ms")).contains("250");
  }

  @Test
  void localKeepsTheHistoryInStepsOfFiveSecondsUnlessToldOtherwise() {
    assertThat(
            config(Map.of(), Optional.empty(), Optional.empty()).get(HistorySettings.HISTORY_STEP))
        .isEqualTo(Duration.ofSeconds(5));
    assertThat(
            config(Map.of("history.step", "1m"), Optional.empty(), Optional.empty())
                .get(HistorySettings.HISTORY_STEP))
        .isEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void localKeepsKafkaTheStateDirectoryAndThePluginsPortItself() {
    final EngineConfig config = config(Map.of(), Optional.empty(), Optional.empty());

    assertThat(config.kafka("bootstrap.servers")).contains("localhost:1234");
    assertThat(config.kafka("state.dir")).contains(DATA.resolve("state").toString());
    assertThat(config.kafka(PluginSettings.PLAIN_HTTP.key())).contains("true");
    assertThat(config.kafka(PluginSettings.PORT.key())).contains("0");
  }

  /**
   * Issue 39.7: local needs no client certificates and no flag. It listens on loopback, where only
   * this machine calls (its scenarios post reviews themselves), so its reviews hold quota as the
   * API server's do in a cluster.
   */
  @Test
  void localStartsWithoutClientCertificatesBecauseOnlyThisMachineReachesIt() {
    final EngineConfig config = config(Map.of(), Optional.empty(), Optional.empty());

    PluginSettings.requireAuthenticatedCallers(config.kafka());
    assertThat(config.kafka(PluginSettings.ALLOW_UNAUTHENTICATED_WEBHOOKS.key())).isEmpty();
    assertThat(config.kafka(PluginSettings.BIND_ADDRESS.key())).contains("127.0.0.1");
  }

  @Test
  void theRevokeDelayOptionWinsOverASettingWhichWinsOverTheScenario() {
    final Scenario scenario =
        new Scenario("s", "a scenario", Optional.of("7s"), Map.of(), List.of(), List.of());

    assertThat(
            config(Map.of("revoke.delay", "9s"), Optional.of("3s"), Optional.of(scenario))
                .get(EngineSettings.REVOKE_DELAY))
        .isEqualTo(Duration.ofSeconds(3));
    assertThat(
            config(Map.of("revoke.delay", "9s"), Optional.empty(), Optional.of(scenario))
                .get(EngineSettings.REVOKE_DELAY))
        .isEqualTo(Duration.ofSeconds(9));
    assertThat(
            config(Map.of(), Optional.empty(), Optional.of(scenario))
                .get(EngineSettings.REVOKE_DELAY))
        .isEqualTo(Duration.ofSeconds(7));
  }

  @Test
  void aScenarioPlaysWithItsSettingsUnlessTheUserSetsThem() {
    final Scenario scenario =
        new Scenario(
            "s",
            "a scenario",
            Optional.empty(),
            Map.of("fairshare.memory.enabled", "true", "fairshare.memory.half-life", "30s"),
            List.of(),
            List.of());

    final EngineConfig played = config(Map.of(), Optional.empty(), Optional.of(scenario));
    assertThat(played.get(QuotaSettings.FAIRSHARE_MEMORY_ENABLED)).isTrue();
    assertThat(played.get(QuotaSettings.FAIRSHARE_MEMORY_HALF_LIFE))
        .isEqualTo(Duration.ofSeconds(30));
    assertThat(
            config(
                    Map.of("fairshare.memory.half-life", "1h"),
                    Optional.empty(),
                    Optional.of(scenario))
                .get(QuotaSettings.FAIRSHARE_MEMORY_HALF_LIFE))
        .isEqualTo(Duration.ofHours(1));
  }

  private static EngineConfig config(
      Map<String, String> settings, Optional<String> revokeDelay, Optional<Scenario> scenario) {
    final LocalSettings local =
        new LocalSettings(
            0,
            OptionalInt.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Map.of(),
            Path.of("examples"),
            scenario,
            revokeDelay,
            false,
            new LinkedHashMap<>(settings),
            false);
    return LocalEngineConfig.of(local, "localhost:1234", DATA);
  }
}
