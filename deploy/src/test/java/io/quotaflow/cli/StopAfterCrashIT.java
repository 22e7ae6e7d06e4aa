package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quotaflow engine} and {@code quotaflow local}, each run as a process of its own, killed
 * with -9, started again on the same data, and stopped by SIGTERM: each stops within 5 s, though
 * its predecessor left its consumer groups, transactions and lease behind.
 */
@Tag("fault")
@ExtendWith(EmbeddedKafkaExtension.class)
class StopAfterCrashIT {

  /** Issue 12's target for SIGTERM. */
  private static final Duration STOP = Duration.ofSeconds(5);

  private static final Duration START = Duration.ofSeconds(90);
  private static final Path LOGS = Path.of("target", "stop-after-crash");
  private static final Pattern KAFKA_ADDRESS = Pattern.compile("Kafka: (127\\.0\\.0\\.1:\\d+)");

  @TempDir Path dir;

  @Test
  void theEngineStopsWithinFiveSecondsAfterACrashAndARestart(final EmbeddedKafkaBroker broker)
      throws Exception {
    final List<String> engine =
        List.of(
            "engine",
            "--bootstrap-servers",
            broker.bootstrapServers(),
            "--application-id",
            "crash-" + UUID.randomUUID().toString().substring(0, 8),
            "--state-dir",
            dir.resolve("state").toString(),
            "--partitions",
            "1");
    final Map<String, String> environment =
        Map.of("QUOTAFLOW_ADMISSION_ENABLED", "false", "QUOTAFLOW_METRICS_PORT", "0");

    crashRestartAndStop("engine", engine, environment, "REBALANCING -> RUNNING");
  }

  @Test
  void localStopsWithinFiveSecondsAfterACrashAndARestart() throws Exception {
    final List<String> local =
        List.of("local", "--data-dir", dir.resolve("data").toString(), "--http-port", "0");

    crashRestartAndStop("local", local, Map.of(), "quotaflow local is ready");
  }

  private static void crashRestartAndStop(
      final String name,
      final List<String> args,
      final Map<String, String> environment,
      final String ready)
      throws Exception {
    final Child first = Child.start(name, args, environment);
    try {
      await().atMost(START).until(() -> first.log().contains(ready) || !first.process.isAlive());
      assertThat(first.log()).contains(ready);
    } finally {
      first.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    final Child restarted = Child.start(name, args, environment);
    try {
      await()
          .atMost(START)
          .until(() -> restarted.log().contains(ready) || !restarted.process.isAlive());
      assertThat(restarted.log()).contains(ready);
      assertThat(kafkaAddresses(restarted.log()))
          .as("local's broker listens where it did before the crash (BrokerPortFile)")
          .isEqualTo(kafkaAddresses(first.log()));

      final long sent = System.nanoTime();
      restarted.process.destroy();
      final boolean exited = restarted.process.waitFor(STOP.toMillis(), TimeUnit.MILLISECONDS);

      assertThat(exited)
          .as("%s stopped within %s (took %d ms)", name, STOP, elapsedMillis(sent))
          .isTrue();
      System.out.printf("%s: SIGTERM -> exit in %d ms%n", name, elapsedMillis(sent));
    } finally {
      restarted.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** The Kafka addresses local printed when ready; none for the engine, which prints none. */
  private static List<String> kafkaAddresses(final String log) {
    final Matcher matcher = KAFKA_ADDRESS.matcher(log);
    final List<String> addresses = new ArrayList<>();
    while (matcher.find()) {
      addresses.add(matcher.group(1));
    }
    return addresses;
  }

  private static long elapsedMillis(final long since) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
  }

  /** The launcher's {@link Main} in a JVM of its own, its output in a file under target/. */
  private record Child(Process process, Path logFile) {
    static Child start(
        final String name, final List<String> args, final Map<String, String> environment)
        throws IOException {
      Files.createDirectories(LOGS);
      final Path logFile = Files.createTempFile(LOGS, name + "-", ".log");
      final List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(
          List.of(
              "-Xmx384m",
              "-XX:+UseSerialGC",
              "-XX:TieredStopAtLevel=1",
              "-cp",
              classPath(),
              Main.class.getName()));
      command.addAll(args);
      final ProcessBuilder builder =
          new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(logFile.toFile());
      builder.environment().putAll(environment);
      return new Child(builder.start(), logFile);
    }

    String log() throws IOException {
      return Files.readString(logFile);
    }

    private static String classPath() {
      final String tests = System.getProperty("surefire.test.class.path");
      return tests != null && !tests.isBlank() ? tests : System.getProperty("java.class.path");
    }
  }
}
