package io.quotaflow.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.dist.JarProcess.Finished;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The production jar starts as a user starts it, with nothing but itself on the class path: it
 * prints its version, simulates the example organisation, has no {@code local}, and runs the engine
 * against a real broker with its state in RocksDB (so the native library it kept loads).
 */
@Tag("system")
@ExtendWith(EmbeddedKafkaExtension.class)
class ProductionJarIT {

  private static final Path JAR = Path.of(System.getProperty("quotaflow.production.jar"));
  private static final Path IMAGE = Path.of(System.getProperty("quotaflow.image.dir"));
  private static final String VERSION = System.getProperty("quotaflow.expected.version");
  private static final Path EXAMPLES = Path.of("..", "deploy", "local", "examples");

  private static final Duration ENGINE_START = Duration.ofSeconds(90);
  private static final Duration ENGINE_STOP = Duration.ofSeconds(15);

  @Test
  void printsItsVersionAndNothingElse() throws Exception {
    final Finished run = JarProcess.runJar(JAR, "--version");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).startsWith("quotaflow " + VERSION + System.lineSeparator());
    assertThat(run.err()).as("logging set-up complaints go to stderr").isEmpty();
  }

  @Test
  void simulatesTheExampleOrganisation() throws Exception {
    final Finished run = JarProcess.runJar(JAR, "simulate", "-f", EXAMPLES.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("koordinator-root-quota").contains("research-vision");
  }

  @Test
  void hasNoLocalCommand() throws Exception {
    final Finished help = JarProcess.runJar(JAR, "--help");
    final Finished local = JarProcess.runJar(JAR, "local");

    assertThat(help.out())
        .containsPattern("(?m)^ +engine ")
        .containsPattern("(?m)^ +connect ")
        .doesNotContainPattern("(?m)^ +local ");
    assertThat(local.exitCode()).isEqualTo(2);
    assertThat(local.err()).contains("Unmatched argument").contains("'local'");
  }

  @Test
  void theImageJarsStartTheSameCommandLine() throws Exception {
    final String classPath =
        IMAGE.resolve("quotaflow-app.jar")
            + File.pathSeparator
            + IMAGE.resolve("quotaflow-libs.jar");

    final Finished run = JarProcess.runMain(classPath, "--version");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).startsWith("quotaflow " + VERSION + System.lineSeparator());
  }

  @Test
  void runsTheEngineWithRocksDbStoresAgainstABroker(
      final EmbeddedKafkaBroker broker, @TempDir final Path dir) throws Exception {
    final Path state = dir.resolve("state");
    final JarProcess engine =
        JarProcess.start(
            List.of("-jar", JAR.toString()),
            Map.of("QUOTAFLOW_ADMISSION_ENABLED", "false", "QUOTAFLOW_STATE_STORES", "rocksdb"),
            "engine",
            "--bootstrap-servers",
            broker.bootstrapServers(),
            "--application-id",
            "dist-" + UUID.randomUUID().toString().substring(0, 8),
            "--state-dir",
            state.toString(),
            "--partitions",
            "1");
    try {
      await()
          .atMost(ENGINE_START)
          .until(() -> engine.err().contains("-> RUNNING") || !engine.isAlive());
      final long running = engine.millisSinceStart();
      assertThat(engine.err()).contains("-> RUNNING");
      System.out.printf("engine (production jar): first RUNNING %d ms after start%n", running);

      // A store RocksDB opened has a CURRENT file: the native library loaded and ran.
      try (Stream<Path> files = Files.walk(state)) {
        assertThat(files.map(Path::getFileName).map(Path::toString)).contains("CURRENT");
      }
    } finally {
      assertThat(engine.stop(ENGINE_STOP)).as("stopped by SIGTERM within %s", ENGINE_STOP).isTrue();
    }
  }
}
