package io.quotaflow.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.fixtures.MockCluster;
import io.quotaflow.topics.TopicCatalogue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * {@code quotaflow connect} in a JVM of its own against a mock cluster and the test broker, so a
 * test can kill it as {@code kill -9} does ({@link #kill()}: no close, no lease release, no leave
 * from the consumer groups) or stop it as SIGTERM does ({@link #terminate()}). Its log goes to a
 * file under {@code target/}, shown by {@link #log()}.
 */
final class ConnectProcess implements AutoCloseable {

  static final String LEASE_NAMESPACE = "default";

  /** How long a first start may take: a JVM of its own, its clients and consumer groups. */
  static final Duration FIRST_START = Duration.ofSeconds(60);

  /** Issue 12's target for the first eviction of a process once it leads. */
  static final Duration NEXT_EVICTION = Duration.ofSeconds(5);

  private static final Path LOGS = Path.of("target", "connect-processes");

  private final String instance;
  private final Process process;
  private final Path logFile;

  private ConnectProcess(final String instance, final Process process, final Path logFile) {
    this.instance = instance;
    this.process = process;
    this.logFile = logFile;
  }

  /**
   * Starts {@code connect --cluster east=mock-context} as the pod {@code instance}.
   *
   * @param settings connect settings as {@code QUOTAFLOW_*} variables
   */
  static ConnectProcess start(
      final String instance,
      final EmbeddedKafkaBroker broker,
      final Path kubeconfig,
      final Map<String, String> settings) {
    try {
      Files.createDirectories(LOGS);
      final Path logFile = Files.createTempFile(LOGS, instance + "-", ".log");
      final List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(
          List.of(
              "-Xmx256m",
              "-XX:+UseSerialGC",
              "-XX:TieredStopAtLevel=1",
              "-cp",
              classPath(),
              ConnectMain.class.getName(),
              "--bootstrap-servers",
              broker.bootstrapServers(),
              "--kubeconfig",
              kubeconfig.toString(),
              "--cluster",
              "east=mock-context"));
      final ProcessBuilder builder =
          new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(logFile.toFile());
      builder.environment().put("POD_NAME", instance);
      builder.environment().putAll(settings);
      return new ConnectProcess(instance, builder.start(), logFile);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The settings both replicas of a test share: the test's topics (two partitions), no metrics
   * endpoint, and the lease {@code lease}; then {@code more}.
   */
  static Map<String, String> settings(
      final TopicCatalogue topics, final String lease, final Map<String, String> more) {
    final Map<String, String> settings = new LinkedHashMap<>();
    settings.put("QUOTAFLOW_TOPIC_PREFIX", topics.prefix());
    settings.put("QUOTAFLOW_TOPIC_PARTITIONS", "2");
    settings.put("QUOTAFLOW_METRICS_PORT", "-1");
    settings.put("QUOTAFLOW_LEADER_ELECTION_LEASE_NAME", lease);
    settings.putAll(more);
    return settings;
  }

  /** A kubeconfig in {@code dir} whose context {@code mock-context} is the mock cluster. */
  static Path kubeconfig(final MockCluster mock, final Path dir) throws IOException {
    return Files.writeString(
        dir.resolve("kubeconfig"),
        String.join(
            "\n",
            "apiVersion: v1",
            "kind: Config",
            "clusters:",
            "- name: mock",
            "  cluster:",
            "    server: " + mock.server().url("/"),
            "contexts:",
            "- name: mock-context",
            "  context:",
            "    cluster: mock",
            "    user: nobody",
            "    namespace: " + LEASE_NAMESPACE,
            "current-context: mock-context",
            "users:",
            "- name: nobody",
            "  user: {}",
            ""));
  }

  /** Whether this instance holds the lease {@code name} now. */
  boolean leads(final MockCluster mock, final String leaseName) {
    return holder(mock, leaseName).filter(instance::equals).isPresent();
  }

  /** The holder of the lease {@code name}, if any. */
  static Optional<String> holder(final MockCluster mock, final String leaseName) {
    final Lease lease =
        mock.client().resources(Lease.class).inNamespace(LEASE_NAMESPACE).withName(leaseName).get();
    return Optional.ofNullable(lease)
        .map(Lease::getSpec)
        .map(spec -> spec.getHolderIdentity())
        .filter(holder -> !holder.isEmpty());
  }

  /** Kills the process as {@code kill -9} does, and waits for it to be gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    assertThat(process.waitFor(10, TimeUnit.SECONDS)).as("killed %s has exited", instance).isTrue();
  }

  /** Sends SIGTERM. */
  void terminate() {
    process.destroy();
  }

  /** Waits for the process to end; true when it did within {@code timeout}. */
  boolean awaitExit(final Duration timeout) throws InterruptedException {
    return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  boolean alive() {
    return process.isAlive();
  }

  /** The process's output so far, for failure messages. */
  String log() {
    try {
      return Files.readString(logFile);
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** The test class path: Surefire's and Failsafe's manifest-only jar hides it. */
  private static String classPath() {
    final String tests = System.getProperty("surefire.test.class.path");
    return tests != null && !tests.isBlank() ? tests : System.getProperty("java.class.path");
  }
}
