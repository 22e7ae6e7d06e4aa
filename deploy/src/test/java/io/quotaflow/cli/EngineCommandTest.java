package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class EngineCommandTest {

  @Test
  void optionsOverrideTheFileAndTheEnvironment(@TempDir final Path dir) throws IOException {
    final Path file = dir.resolve("engine.properties");
    Files.writeString(
        file, "application.id=from-file\nrevoke.delay=10s\ntopic.partitions=12\nlinger.ms=7\n");
    final EngineCommand command =
        new EngineCommand(
            Map.of("QUOTAFLOW_REVOKE_DELAY", "20s", "QUOTAFLOW_TOPIC_PARTITIONS", "9"),
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));

    new CommandLine(command)
        .parseArgs(
            "--bootstrap-servers", "kafka:9092",
            "--config", file.toString(),
            "--state-dir", dir.resolve("state").toString(),
            "--application-id", "from-options",
            "--partitions", "3");
    final EngineConfig config = command.configuration();

    assertThat(config.kafka())
        .containsEntry(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "kafka:9092")
        .containsEntry(StreamsConfig.APPLICATION_ID_CONFIG, "from-options")
        .containsEntry(StreamsConfig.STATE_DIR_CONFIG, dir.resolve("state").toString())
        .containsEntry("linger.ms", "7");
    assertThat(config.get(EngineSettings.TOPIC_PARTITIONS)).isEqualTo(3);
    assertThat(config.get(EngineSettings.REVOKE_DELAY)).isEqualTo(Duration.ofSeconds(20));
  }

  @Test
  void bootstrapServersAreRequired() {
    final StringWriter err = new StringWriter();
    final CommandLine commandLine =
        new CommandLine(
            new EngineCommand(Map.of(), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)));
    commandLine.setErr(new PrintWriter(err));

    final int exit = commandLine.execute();

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString()).contains("--bootstrap-servers");
  }

  @Test
  void anAdmissionPluginWithoutTlsOrPlainHttpFailsBeforeAnythingStarts() {
    final StringWriter err = new StringWriter();
    final CommandLine commandLine =
        new CommandLine(
            new EngineCommand(Map.of(), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)));
    commandLine.setErr(new PrintWriter(err));
    // Nothing listens on port 1: reaching Kafka would hang until a timeout, not fail at once.
    commandLine.setExecutionExceptionHandler(
        (exception, failed, parseResult) -> {
          failed.getErr().println(exception.getMessage());
          return 1;
        });

    final int exit = commandLine.execute("--bootstrap-servers", "127.0.0.1:1");

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString()).contains("admission.tls.cert.file").contains("admission.plain.http");
  }

  @Test
  void helpListsTheOptions() {
    final StringWriter out = new StringWriter();
    final CommandLine commandLine =
        new CommandLine(
            new EngineCommand(Map.of(), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)));
    commandLine.setOut(new PrintWriter(out));

    assertThat(commandLine.execute("--help")).isZero();
    assertThat(out.toString())
        .contains("Usage: engine")
        .contains("--bootstrap-servers=HOST:PORT", "--config=FILE", "--state-dir=DIR")
        .contains("--application-id=ID", "--partitions=N", "QUOTAFLOW_REVOKE_DELAY");
  }
}
