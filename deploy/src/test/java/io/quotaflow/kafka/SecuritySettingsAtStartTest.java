package io.quotaflow.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.fixtures.CommandRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands that talk to Kafka check its TLS and SASL settings before any client starts: a bad
 * setting stops them at once with a message naming it, never with a secret in it. The engine checks
 * whom its webhooks would believe as early.
 */
class SecuritySettingsAtStartTest {

  /** Nothing listens here: a command that got as far as Kafka would wait, not fail at once. */
  private static final String NO_KAFKA = "127.0.0.1:1";

  private static final String SECRET = "never-print-me-42";

  @TempDir Path dir;

  @Test
  void theEngineStopsOnASaslMechanismWithoutJaasConfiguration() throws IOException {
    final Path config =
        properties(
            "security.protocol=SASL_SSL",
            "sasl.mechanism=SCRAM-SHA-512",
            "ssl.truststore.password=" + SECRET);

    final CommandRun run =
        timed("engine", "--bootstrap-servers", NO_KAFKA, "--config", config.toString());

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .isEqualToIgnoringNewLines(
            "engine: Kafka security settings: sasl.mechanism SCRAM-SHA-512 (security.protocol"
                + " SASL_SSL) needs sasl.jaas.config, e.g. the key sasl.jaas.config of the"
                + " KafkaUser's Secret");
  }

  /** Issue 25: whoever reaches a PLAINTEXT Kafka could write eviction commands. */
  @Test
  void theEngineAndTheConnectorsRefusePlaintextToARemoteKafka() {
    final CommandRun engine = timed("engine", "--bootstrap-servers", "kafka.example:9092");
    final CommandRun connect =
        timed(
            "connect",
            "--bootstrap-servers",
            "kafka.example:9092",
            "--cluster",
            "east=no-such-context");

    for (final CommandRun run : new CommandRun[] {engine, connect}) {
      assertThat(run.exitCode()).isEqualTo(1);
      assertThat(run.err())
          .contains("security.protocol is PLAINTEXT to kafka.example:9092")
          .contains("allow.plaintext.kafka=true");
    }
  }

  /**
   * Issue 39.7: an engine whose webhooks any pod could call, holding quota and writing denials,
   * does not start unless told that its callers are judged only.
   */
  @Test
  void theEngineRefusesWebhooksThatAnyPodCouldCall() throws IOException {
    final Path open = properties("admission.plain.http=true");

    final CommandRun run =
        timed("engine", "--bootstrap-servers", NO_KAFKA, "--config", open.toString());

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .contains("admission.tls.client.ca.file is not set and the plugin listens on 0.0.0.0")
        .contains("admission.allow.unauthenticated.webhooks=true");
  }

  @Test
  void theConnectorsStopOnATrustStoreThatIsNotMounted() throws IOException {
    final Path config =
        properties(
            "security.protocol=SSL",
            "ssl.truststore.location=" + dir.resolve("kafka-ca/ca.p12"),
            "ssl.truststore.password=" + SECRET);

    final CommandRun run =
        timed(
            "connect",
            "--bootstrap-servers",
            NO_KAFKA,
            "--cluster",
            "east=no-such-context",
            "--config",
            config.toString());

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .startsWith("connect: Kafka security settings: ssl.truststore.location names ")
        .contains("kafka-ca/ca.p12, which is not a readable file")
        .doesNotContain(SECRET);
  }

  @Test
  void topicsTailStopsOnAnUnknownProtocol() throws IOException {
    final Path config = properties("security.protocol=SASL_TLS");

    final CommandRun run =
        timed(
            "topics",
            "tail",
            "pods.v1",
            "--bootstrap-servers",
            NO_KAFKA,
            "--config",
            config.toString());

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .isEqualToIgnoringNewLines(
            "tail: Kafka security settings: security.protocol 'SASL_TLS' is not a security"
                + " protocol; expected one of [PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL]");
  }

  @Test
  void aJaasConfigurationThatDoesNotParseIsReportedWithoutItsPassword() throws IOException {
    final Path config =
        properties(
            "security.protocol=SASL_PLAINTEXT",
            "sasl.mechanism=PLAIN",
            "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required"
                + " username=\"engine\" password=\""
                + SECRET
                + "\"");

    final CommandRun run =
        timed("engine", "--bootstrap-servers", NO_KAFKA, "--config", config.toString());

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .contains("sasl.jaas.config is not a JAAS configuration")
        .doesNotContain(SECRET);
  }

  /** Runs the command and requires it to end within seconds, as a check at start does. */
  private static CommandRun timed(final String... args) {
    final long start = System.nanoTime();
    final CommandRun run = CommandRun.of(args);
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .as("stopped before asking Kafka")
        .isLessThan(Duration.ofSeconds(10));
    return run;
  }

  private Path properties(final String... lines) throws IOException {
    return Files.writeString(dir.resolve("kafka.properties"), String.join("\n", lines) + "\n");
  }
}
