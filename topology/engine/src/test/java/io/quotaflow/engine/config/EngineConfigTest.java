package io.quotaflow.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.config.Secrets;
import io.quotaflow.config.Setting;
import io.quotaflow.tree.QuotaOptions.DefaultWeightPolicy;
import io.quotaflow.tree.QuotaOptions.DerivedResourceRule;
import io.quotaflow.tree.QuotaOptions.UsedPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EngineConfigTest {

  @Test
  void defaultsAreTheDocumentedOnes() {
    final EngineConfig config = EngineConfig.defaults();

    assertThat(config.get(EngineSettings.RECOMPUTE_INTERVAL)).isEqualTo(Duration.ofMillis(100));
    assertThat(config.get(EngineSettings.REVOKE_CHECK_INTERVAL)).isEqualTo(Duration.ofSeconds(1));
    assertThat(config.get(EngineSettings.REVOKE_DELAY)).isEqualTo(Duration.ofSeconds(120));
    assertThat(config.get(EngineSettings.RECLAIM_ENABLED)).isTrue();
    assertThat(config.topics().pods().name()).isEqualTo("quotaflow.pods.v1");
    assertThat(config.get(EngineSettings.RECOMPUTE_BACKLOG_INTERVAL))
        .isEqualTo(Duration.ofSeconds(1));
    assertThat(config.kafka())
        .containsEntry(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2)
        .containsEntry(StreamsConfig.APPLICATION_ID_CONFIG, "quotaflow-engine")
        .containsEntry(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, "-1")
        .containsEntry(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "50");
  }

  @Test
  void pluginSettingsReachTheEngineButNotKafkaStreams() {
    final EngineConfig config =
        EngineConfig.builder().set("admission.port", "9443").set("linger.ms", "20").build();

    assertThat(config.kafka()).containsEntry("admission.port", "9443");
    assertThat(config.kafkaProperties())
        .doesNotContainKey("admission.port")
        .containsEntry("linger.ms", "20");
  }

  @Test
  void theShortCommitIntervalIsOnlyADefaultOfExactlyOnce() {
    final EngineConfig atLeastOnce =
        EngineConfig.builder()
            .set(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE)
            .build();
    final EngineConfig chosen =
        EngineConfig.builder().set(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "200").build();

    assertThat(atLeastOnce.kafka()).doesNotContainKey(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG);
    assertThat(chosen.kafka()).containsEntry(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "200");
  }

  @Test
  void laterSourcesOverrideEarlierOnes(@TempDir final Path dir) throws IOException {
    final Path file = dir.resolve("engine.properties");
    Files.writeString(
        file,
        """
        revoke.delay=60s
        recompute.interval=250ms
        processing.guarantee=at_least_once
        num.standby.replicas=1
        """);

    final EngineConfig config =
        EngineConfig.builder()
            .file(file)
            .environment(
                Map.of(
                    "QUOTAFLOW_REVOKE_DELAY", "30s",
                    "QUOTAFLOW_KAFKA_NUM_STANDBY_REPLICAS", "2",
                    "QUOTAFLOW_ADMISSION_PORT", "8443",
                    "HOME", "/root"))
            .set(StreamsConfig.APPLICATION_ID_CONFIG, "from-the-command-line")
            .build();

    assertThat(config.get(EngineSettings.REVOKE_DELAY)).isEqualTo(Duration.ofSeconds(30));
    assertThat(config.get(EngineSettings.RECOMPUTE_INTERVAL)).isEqualTo(Duration.ofMillis(250));
    assertThat(config.kafka())
        .containsEntry(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE)
        .containsEntry(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, "2")
        .containsEntry(StreamsConfig.APPLICATION_ID_CONFIG, "from-the-command-line")
        .doesNotContainKeys("admission.port", "home", "revoke.delay");
  }

  @Test
  void engineSettingsAreTypedAndKafkaSettingsPassThroughUnchanged() {
    final EngineConfig config =
        EngineConfig.builder()
            .set("quota.default.shared.weight", "MIN")
            .set("quota.used.policy", "running")
            .set("quota.derived.resources", "nvidia.com/gpu -> quotaflow.io/gpu-memory x 32")
            .set("reclaim.enabled", "false")
            .set("max.poll.records", "250")
            .set("producer.linger.ms", "5")
            .build();

    assertThat(config.quotaOptions().defaultWeight()).isEqualTo(DefaultWeightPolicy.MIN);
    assertThat(config.quotaOptions().usedPolicy()).isEqualTo(UsedPolicy.RUNNING);
    assertThat(config.quotaOptions().derivedResources())
        .containsExactly(new DerivedResourceRule("nvidia.com/gpu", "quotaflow.io/gpu-memory", 32));
    assertThat(config.get(EngineSettings.RECLAIM_ENABLED)).isFalse();
    assertThat(config.kafka())
        .containsEntry("max.poll.records", "250")
        .containsEntry("producer.linger.ms", "5")
        .doesNotContainKey("reclaim.enabled");
  }

  @Test
  void anInvalidValueNamesTheSettingAndWhatItExpects() {
    assertThatThrownBy(() -> EngineConfig.builder().set("revoke.delay", "soon").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("revoke.delay")
        .hasMessageContaining("'soon'")
        .hasMessageContaining("duration");
    assertThatThrownBy(() -> EngineConfig.builder().set("reclaim.enabled", "yes").build())
        .hasMessageContaining("reclaim.enabled")
        .hasMessageContaining("true or false");
    assertThatThrownBy(() -> EngineConfig.builder().set("recompute.interval", "0ms").build())
        .hasMessageContaining("positive");
  }

  @Test
  void durationsReadInEveryDocumentedForm() {
    final Setting<Duration> delay = EngineSettings.REVOKE_DELAY;

    assertThat(delay.parse("1500")).isEqualTo(Duration.ofMillis(1500));
    assertThat(delay.parse("100ms")).isEqualTo(Duration.ofMillis(100));
    assertThat(delay.parse("2m")).isEqualTo(Duration.ofMinutes(2));
    assertThat(delay.parse("PT90S")).isEqualTo(Duration.ofSeconds(90));
    assertThat(delay.parse("1h")).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void describedConfigurationMasksSecrets() {
    final EngineConfig config =
        EngineConfig.builder()
            .set(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule"
                    + " required username=\"u\" password=\"hunter2\";")
            .set("ssl.keystore.password", "hunter2")
            .set("ssl.key.password", "hunter2")
            .set("producer.ssl.truststore.password", "hunter2")
            .set("bootstrap.servers", "kafka:9092")
            .build();

    final List<String> lines = config.describe();

    assertThat(String.join("\n", lines)).doesNotContain("hunter2");
    assertThat(lines)
        .contains(
            "sasl.jaas.config = " + Secrets.MASK,
            "ssl.keystore.password = " + Secrets.MASK,
            "bootstrap.servers = kafka:9092",
            "revoke.delay = 120s");
  }

  @Test
  void everySettingHasADocumentedDefaultAndAnEnvironmentName() {
    assertThat(EngineSettings.ALL)
        .allSatisfy(
            setting -> {
              assertThat(setting.doc()).isNotBlank();
              assertThat(setting.environmentName())
                  .startsWith("QUOTAFLOW_")
                  .doesNotContain(".")
                  .isUpperCase();
            })
        .extracting(Setting::key)
        .doesNotHaveDuplicates();
    assertThat(EngineSettings.REVOKE_DELAY.environmentName()).isEqualTo("QUOTAFLOW_REVOKE_DELAY");
  }
}
