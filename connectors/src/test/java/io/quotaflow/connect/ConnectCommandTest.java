package io.quotaflow.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ConnectCommandTest {

  @TempDir Path dir;

  @Test
  void optionsNameTheClustersTheirContextsAndTheConnectorsToRun() {
    final ConnectCommand command =
        parse(
            Map.of(),
            "--bootstrap-servers",
            "kafka:9092",
            "--cluster",
            "east=ctx-east",
            "--cluster",
            "west=ctx-west",
            "--in-cluster",
            "home",
            "--no-status");

    assertThat(command.clusterSources())
        .containsExactly(
            Map.entry("east", "context ctx-east"),
            Map.entry("west", "context ctx-west"),
            Map.entry("home", "in-cluster service account"));
    assertThat(command.enabled()).isEqualTo(new Connectors.Enabled(true, true, false));
    assertThat(command.configuration().kafka()).containsEntry("bootstrap.servers", "kafka:9092");
  }

  @Test
  void dryRunTurnsEvictionIntoReportsOnly() {
    final ConnectCommand command =
        parse(Map.of(), "--bootstrap-servers", "k:9092", "--cluster", "a=b", "--dry-run");

    assertThat(command.configuration().get(ConnectSettings.EVICTION_DRY_RUN)).isTrue();
    assertThat(ConnectSettings.eviction(command.configuration()).dryRun()).isTrue();
  }

  @Test
  void theSourcePartitionsByClusterUnlessToldOtherwise() {
    final ConnectCommand byDefault =
        parse(Map.of(), "--bootstrap-servers", "k:9092", "--cluster", "a=b");
    final ConnectCommand byKey =
        parse(
            Map.of("QUOTAFLOW_SOURCE_PARTITION_BY_CLUSTER", "false"),
            "--bootstrap-servers",
            "k:9092",
            "--cluster",
            "a=b");

    assertThat(ConnectSettings.source(byDefault.configuration()).partitionByCluster()).isTrue();
    assertThat(ConnectSettings.source(byKey.configuration()).partitionByCluster()).isFalse();
    assertThat(byDefault.configuration().kafka())
        .as("the executor's and the status writer's clients")
        .doesNotContainKey(ProducerConfig.PARTITIONER_CLASS_CONFIG);
  }

  @Test
  void theFileTheEnvironmentAndTheOptionsOverrideEachOtherInThatOrder() throws IOException {
    final Path file = dir.resolve("connect.properties");
    Files.writeString(
        file,
        "status.flush.interval=5s\neviction.max.attempts=2\nbootstrap.servers=from-file:1\n"
            + "security.protocol=SSL\n");
    final ConnectCommand command =
        parse(
            Map.of("QUOTAFLOW_EVICTION_MAX_ATTEMPTS", "4", "QUOTAFLOW_KAFKA_LINGER_MS", "5"),
            "--bootstrap-servers",
            "from-option:2",
            "--cluster",
            "a=b",
            "--config",
            file.toString());

    final ConnectConfig config = command.configuration();

    assertThat(config.get(StatusWriterSettings.STATUS_FLUSH_INTERVAL))
        .isEqualTo(Duration.ofSeconds(5));
    assertThat(config.get(ConnectSettings.EVICTION_MAX_ATTEMPTS)).isEqualTo(4);
    assertThat(config.kafka())
        .containsEntry("bootstrap.servers", "from-option:2")
        .containsEntry("security.protocol", "SSL")
        .containsEntry("linger.ms", "5");
  }

  @Test
  void theLoggedConfigurationMasksSecrets() {
    final ConnectConfig config =
        ConnectConfig.builder()
            .set("sasl.jaas.config", "org.apache.kafka...PlainLoginModule password=\"hunter2\";")
            .set("ssl.keystore.password", "hunter2")
            .set("bootstrap.servers", "k:9092")
            .build();

    assertThat(String.join("\n", config.describe()))
        .doesNotContain("hunter2")
        .contains("sasl.jaas.config = [hidden]")
        .contains("bootstrap.servers = k:9092")
        .contains("eviction.max.attempts = 6");
  }

  @Test
  void theMaxCommandAgeIsADurationDefaultingToTenMinutes() {
    final ConnectConfig defaults = ConnectConfig.builder().build();
    final ConnectConfig configured = ConnectConfig.builder().set("eviction.max.age", "2h").build();

    assertThat(ConnectSettings.eviction(defaults).maxAge()).isEqualTo(Duration.ofMinutes(10));
    assertThat(ConnectSettings.eviction(configured).maxAge()).isEqualTo(Duration.ofHours(2));
  }

  @Test
  void aMaxCommandAgeThatIsNotPositiveIsRejected() {
    for (final String value : List.of("0s", "0", "-5m", "PT-1M")) {
      assertThatThrownBy(() -> ConnectConfig.builder().set("eviction.max.age", value).build())
          .as(value)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("eviction.max.age");
    }
  }

  @Test
  void aValueThatDoesNotParseNamesItsSetting() {
    assertThatThrownBy(() -> ConnectConfig.builder().set("status.flush.interval", "soon").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("status.flush.interval");
  }

  @Test
  void withoutAClusterTheCommandIsAUsageError() {
    final StringWriter err = new StringWriter();
    final CommandLine commandLine =
        new CommandLine(
            new ConnectCommand(Map.of(), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)));
    commandLine.setErr(new PrintWriter(err, true));

    final int exit = commandLine.execute("--bootstrap-servers", "k:9092");

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString()).contains("Name at least one cluster");
  }

  @Test
  void turningEveryConnectorOffIsAUsageError() {
    final StringWriter err = new StringWriter();
    final CommandLine commandLine =
        new CommandLine(
            new ConnectCommand(Map.of(), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)));
    commandLine.setErr(new PrintWriter(err, true));

    final int exit =
        commandLine.execute(
            "--bootstrap-servers",
            "k:9092",
            "--cluster",
            "a=b",
            "--no-source",
            "--no-evict",
            "--no-status");

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString()).contains("leave nothing to run");
  }

  private static ConnectCommand parse(final Map<String, String> environment, final String... args) {
    final ConnectCommand command =
        new ConnectCommand(environment, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    new CommandLine(command).parseArgs(args);
    return command;
  }
}
