package io.quotaflow.local;

import io.quotaflow.connect.ServiceCommand;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code quotaflow local}: the whole system on one machine, until Ctrl-C. By default a Kafka broker
 * inside the process, a demo cluster loaded with the example organisation, the connectors, the
 * engine and the admission plugin; the quota tree is printed whenever it changes.
 */
@Command(
    name = "local",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Runs quotaflow on this machine until Ctrl-C: an embedded Kafka broker, a demo cluster (a"
            + " mock Kubernetes API server loaded with the example organisation), the connectors,"
            + " the engine and the admission plugin on localhost. Prints the quota tree whenever"
            + " it changes.")
public final class LocalCommand implements Callable<Integer> {

  private static final Logger LOG = LoggerFactory.getLogger(LocalCommand.class);

  /** Exit code when a scenario step did not reach its expected state. */
  public static final int SCENARIO_FAILED = 3;

  /** How long Ctrl-C waits for a start in progress to finish and everything to close. */
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

  @Spec private CommandSpec spec;

  @Option(
      names = "--http-port",
      paramLabel = "PORT",
      defaultValue = "8080",
      description = "Port of the admission plugin and query API on 127.0.0.1 (default 8080).")
  private int httpPort;

  @Option(
      names = "--kafka-port",
      paramLabel = "PORT",
      description = "Port of the embedded Kafka broker (default: a free port).")
  private Integer kafkaPort;

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description =
          "Keep Kafka's and the engine's data here (default: a temporary directory removed on"
              + " exit).")
  private Path dataDir;

  @Option(
      names = "--bootstrap-servers",
      paramLabel = "HOST:PORT",
      description = "Use this Kafka instead of the embedded broker.")
  private String bootstrapServers;

  @Option(
      names = "--kubeconfig",
      paramLabel = "FILE",
      description =
          "The kubeconfig of the --cluster contexts (default: KUBECONFIG or ~/.kube/config).")
  private Path kubeconfig;

  @Option(
      names = "--cluster",
      paramLabel = "NAME=CONTEXT",
      description =
          "Watch this real cluster (kubeconfig context) instead of the demo cluster. Repeatable.")
  private Map<String, String> clusters = new LinkedHashMap<>();

  @Option(
      names = "--evict",
      description =
          "On real clusters, carry out evictions and write quota status (default: dry-run).")
  private boolean evict;

  @Option(
      names = "--examples",
      paramLabel = "DIR",
      description = "Manifests the demo cluster starts with (default: deploy/local/examples).")
  private Path examples;

  @Option(
      names = "--scenario",
      paramLabel = "NAME",
      description = "Play a scripted timeline on the demo cluster; 'list' lists them.")
  private String scenario;

  @Option(
      names = "--scenarios",
      paramLabel = "DIR",
      description = "Where scenarios are read from (default: deploy/local/scenarios).")
  private Path scenarios;

  @Option(
      names = "--revoke-delay",
      paramLabel = "DURATION",
      description =
          "How long a group may stay over its runtime before pods are evicted, e.g. 10s"
              + " (default: the scenario's, else 120s).")
  private String revokeDelay;

  @Option(
      names = "--auth",
      description =
          "People sign in to the query API and the web view with a Kubernetes token and see what"
              + " RBAC lets them; on the demo cluster, local prints an admin's token and that of a"
              + " tenant who may read namespace vision only.")
  private boolean auth;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "Properties file with engine, admission plugin and Kafka settings, as the engine"
              + " reads them (docs/engine.md).")
  private Path configFile;

  @Option(
      names = "--set",
      paramLabel = "KEY=VALUE",
      description = "One engine, admission plugin or Kafka setting, over --config. Repeatable.")
  private Map<String, String> overrides = new LinkedHashMap<>();

  private final CountDownLatch stopped = new CountDownLatch(1);
  private final CountDownLatch finished = new CountDownLatch(1);
  private volatile LocalRun running;

  @Override
  public Integer call() throws InterruptedException {
    final PrintWriter out = spec.commandLine().getOut();
    if ("list".equals(scenario)) {
      new ScenarioCatalogue(scenariosDir())
          .all()
          .forEach(s -> out.printf("%-20s %s%n", s.name(), s.summary()));
      out.flush();
      return 0;
    }
    LocalSettings settings = settings();
    if (scenario != null) {
      settings = settings.withScenario(new ScenarioCatalogue(scenariosDir()).named(scenario));
    }
    // The JVM halts once its hooks return: wait for everything to be closed (data removed too).
    final Thread hook =
        new Thread(
            () -> {
              stop();
              awaitFinished();
            },
            "quotaflow-local-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try (LocalRun run = LocalRun.start(settings, out)) {
      running = run;
      out.printf(
          "%nquotaflow local is ready (%.1f s). Kafka: %s. %s%nCtrl-C stops it.%n",
          run.readyAfter().toMillis() / 1000.0,
          run.bootstrapServers(),
          run.adminUrl()
              .map(
                  url ->
                      "Query API: curl " + url + "/api/v1/clusters/" + clusterHint(run) + "/quotas")
              .orElse("The admission plugin is off."));
      out.flush();
      if (settings.scenario().isPresent()) {
        try {
          new ScenarioPlayer(run, out, (number, step, outcome) -> {})
              .play(settings.scenario().get());
          out.printf("The system keeps running; Ctrl-C stops it.%n");
          out.flush();
        } catch (final ScenarioFailedException e) {
          LOG.error("Scenario failed: {}", e.getMessage());
          return SCENARIO_FAILED;
        }
      }
      stopped.await();
      return 0;
    } finally {
      running = null;
      finished.countDown();
      ServiceCommand.removeShutdownHook(hook);
    }
  }

  private void awaitFinished() {
    try {
      if (!finished.await(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        LOG.warn("Did not stop within {} s", STOP_TIMEOUT.toSeconds());
      }
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops a running {@code local}, as Ctrl-C does through the shutdown hook. */
  void stop() {
    final LocalRun run = running;
    if (run != null) {
      LOG.info("Stopping");
      run.close();
    }
    stopped.countDown();
  }

  private static String clusterHint(final LocalRun run) {
    return run.clusters().get(0).name();
  }

  private LocalSettings settings() {
    return new LocalSettings(
        httpPort,
        kafkaPort == null ? OptionalInt.empty() : OptionalInt.of(kafkaPort),
        Optional.ofNullable(dataDir),
        Optional.ofNullable(bootstrapServers),
        Optional.ofNullable(kubeconfig),
        clusters,
        examples == null ? LocalFiles.localDir().resolve("examples") : examples,
        Optional.empty(),
        Optional.ofNullable(revokeDelay),
        evict,
        engineSettings(),
        auth);
  }

  /** The settings of {@code --config}, then those of {@code --set} over them. */
  private Map<String, String> engineSettings() {
    final Map<String, String> settings = new LinkedHashMap<>();
    if (configFile != null) {
      final Properties file = new Properties();
      try (Reader reader = Files.newBufferedReader(configFile, StandardCharsets.UTF_8)) {
        file.load(reader);
      } catch (final IOException e) {
        throw new IllegalArgumentException(
            "Cannot read --config " + configFile + ": " + e.getMessage(), e);
      }
      new TreeMap<>(file).forEach((key, value) -> settings.put((String) key, (String) value));
    }
    settings.putAll(overrides);
    return settings;
  }

  private Path scenariosDir() {
    final Path dir = scenarios == null ? LocalFiles.localDir().resolve("scenarios") : scenarios;
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException("No scenario directory " + dir + " (see --scenarios)");
    }
    return dir;
  }
}
