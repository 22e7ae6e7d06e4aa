package io.quotaflow.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A quotaflow command run from built jars in a JVM of its own, as a user runs it: only the jars on
 * the class path, stdout and stderr in files under target/ (a pipe left unread could block it).
 */
final class JarProcess {

  private static final Path LOGS = Path.of("target", "jar-runs");

  /** Longer than any command here takes on a busy 2-core machine. */
  private static final Duration FINISH = Duration.ofSeconds(60);

  private final Process process;
  private final Path out;
  private final Path err;
  private final long startedNanos;

  private JarProcess(final Process process, final Path out, final Path err, final long started) {
    this.process = process;
    this.out = out;
    this.err = err;
    this.startedNanos = started;
  }

  /** What a finished command left behind. */
  record Finished(int exitCode, String out, String err) {}

  /** {@code java -jar JAR ARGS} to its end. */
  static Finished runJar(final Path jar, final String... args) throws Exception {
    return start(List.of("-jar", jar.toString()), Map.of(), args).finish();
  }

  /** {@code java -cp CLASSPATH io.quotaflow.cli.Main ARGS} to its end. */
  static Finished runMain(final String classPath, final String... args) throws Exception {
    return start(List.of("-cp", classPath, "io.quotaflow.cli.Main"), Map.of(), args).finish();
  }

  /** Starts {@code java JVM_ARGS ARGS} with the given environment added to this one's. */
  static JarProcess start(
      final List<String> launch, final Map<String, String> environment, final String... args)
      throws IOException {
    Files.createDirectories(LOGS);
    final Path out = Files.createTempFile(LOGS, "run-", ".out");
    final Path err = Files.createTempFile(LOGS, "run-", ".err");
    final List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx512m");
    command.addAll(launch);
    command.addAll(List.of(args));
    final ProcessBuilder builder =
        new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
    builder.environment().putAll(environment);
    final long started = System.nanoTime();
    return new JarProcess(builder.start(), out, err, started);
  }

  Finished finish() throws Exception {
    final boolean exited = process.waitFor(FINISH.toMillis(), TimeUnit.MILLISECONDS);
    if (!exited) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    assertThat(exited).as("finished within %s; stderr:%n%s", FINISH, err()).isTrue();
    return new Finished(process.exitValue(), Files.readString(out), err());
  }

  String err() throws IOException {
    return Files.readString(err);
  }

  boolean isAlive() {
    return process.isAlive();
  }

  long millisSinceStart() {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos);
  }

  /** Asks the process to stop as SIGTERM does and waits for it, killing it after the wait. */
  boolean stop(final Duration wait) throws InterruptedException {
    process.destroy();
    final boolean exited = process.waitFor(wait.toMillis(), TimeUnit.MILLISECONDS);
    if (!exited) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    return exited;
  }
}
