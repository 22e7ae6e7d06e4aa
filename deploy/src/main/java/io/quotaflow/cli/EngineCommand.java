package io.quotaflow.cli;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.admission.http.AdmissionServer;
import io.quotaflow.admission.http.EnginePlugin;
import io.quotaflow.admission.http.PluginSettings;
import io.quotaflow.connect.JvmMeters;
import io.quotaflow.connect.MetricsEndpoint;
import io.quotaflow.connect.ServiceCommand;
import io.quotaflow.engine.Engine;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.metrics.StoreMeterTags;
import io.quotaflow.kafka.KafkaSecurity;
import io.quotaflow.topics.ProvisioningReport;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code quotaflow engine}: runs the Kafka Streams engine until the process is stopped. Checks its
 * Kafka security settings, creates missing topics, logs its effective configuration (secrets
 * masked), serves its meters (the JVM's included) over plain HTTP on {@code metrics.port} besides
 * the admission plugin's {@code /metrics}, and closes cleanly on SIGTERM.
 */
@Command(
    name = "engine",
    mixinStandardHelpOptions = true,
    // Declaration order keeps --bootstrap-servers=HOST:PORT whole on the first synopsis line.
    sortSynopsis = false,
    description = {
      "Run the quota engine: reads pods, quotas and nodes, writes runtimes, pod classes and"
          + " eviction commands.",
      "Settings come from --config, then QUOTAFLOW_* environment variables (e.g."
          + " QUOTAFLOW_REVOKE_DELAY=60s, QUOTAFLOW_KAFKA_SECURITY_PROTOCOL=SSL), then the options"
          + " below."
    })
public final class EngineCommand extends ServiceCommand {
  private static final Logger LOG = LoggerFactory.getLogger(EngineCommand.class);

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "Properties file with engine settings and Kafka settings.")
  private Path configFile;

  @Option(
      names = "--state-dir",
      paramLabel = "DIR",
      description = "Directory of the local state stores (Kafka Streams state.dir).")
  private Path stateDir;

  @Option(
      names = "--application-id",
      paramLabel = "ID",
      description = "Kafka Streams application.id (default: quotaflow-engine).")
  private String applicationId;

  @Option(
      names = "--partitions",
      paramLabel = "N",
      description = "Partitions of the topics the engine creates (default: 6).")
  private Integer partitions;

  /** How long SIGTERM waits for the engine to close: shutdown.timeout and a margin. */
  private static final Duration STOP_WAIT = Duration.ofSeconds(10);

  private final CountDownLatch stopped = new CountDownLatch(1);
  private final CountDownLatch finished = new CountDownLatch(1);
  private volatile Engine running;
  private volatile MetricsEndpoint metrics;

  /**
   * The command as the launcher runs it: the process environment, meters served by the admission
   * plugin's {@code /metrics}.
   */
  public EngineCommand() {
    this(System.getenv(), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
  }

  /**
   * @param environment where {@code QUOTAFLOW_*} variables are read
   * @param registry where meters go; the admission plugin serves it on {@code /metrics}
   */
  public EngineCommand(
      final Map<String, String> environment, final PrometheusMeterRegistry registry) {
    super(environment, registry);
    StoreMeterTags.unify(registry);
  }

  /** The configuration the options, the file and the environment give, in that precedence. */
  EngineConfig configuration() {
    final EngineConfig.Builder builder = EngineConfig.builder();
    if (configFile != null) {
      builder.file(configFile);
    }
    builder.environment(environment(), PluginSettings.ALL);
    builder.set(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    if (stateDir != null) {
      builder.set(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    }
    if (applicationId != null) {
      builder.set(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    }
    if (partitions != null) {
      builder.set(EngineSettings.TOPIC_PARTITIONS.key(), partitions.toString());
    }
    return builder.build();
  }

  @Override
  public Integer call() throws InterruptedException {
    final EngineConfig config = configuration();
    LOG.info("Effective configuration:\n  {}", String.join("\n  ", config.describe()));
    // Fail on TLS and SASL settings a Kafka client would trip over, before any client starts.
    KafkaSecurity.check(config.kafka());
    KafkaSecurity.requireEncrypted(
        config.kafka(),
        config.get(EngineSettings.ALLOW_PLAINTEXT_KAFKA),
        EngineSettings.ALLOW_PLAINTEXT_KAFKA.key());
    if (PluginSettings.enabled(config.kafka())) {
      // Fail on a bad plugin setting (e.g. neither TLS files nor plain HTTP, or webhooks open to
      // callers it cannot identify) before anything starts.
      PluginSettings.requireAuthenticatedCallers(config.kafka());
    }
    final int metricsPort = config.get(EngineSettings.METRICS_PORT);
    try (JvmMeters jvm = JvmMeters.bindTo(registry());
        MetricsEndpoint endpoint =
            metricsPort == EngineSettings.METRICS_OFF
                ? null
                : MetricsEndpoint.start(metricsPort, registry())) {
      metrics = endpoint;
      return run(config);
    } finally {
      metrics = null;
    }
  }

  /** The engine while {@link #call()} runs it, for in-process callers such as tests. */
  Optional<Engine> engine() {
    return Optional.ofNullable(running);
  }

  /** Where the plain-HTTP metrics endpoint listens, while {@link #call()} runs with it on. */
  Optional<InetSocketAddress> metricsAddress() {
    return Optional.ofNullable(metrics).map(MetricsEndpoint::address);
  }

  private int run(final EngineConfig config) throws InterruptedException {
    final Engine engine = new Engine(config, registry());
    // The JVM halts when its hooks return: the hook asks call() to stop and waits for it, so the
    // admission plugin closes before the engine it reads, and both within the timeout.
    final Thread hook =
        new Thread(
            () -> {
              LOG.info("Shutdown requested");
              stopped.countDown();
              awaitFinished();
            },
            "quotaflow-engine-shutdown");
    Optional<AdmissionServer> plugin = Optional.empty();
    try {
      running = engine;
      Runtime.getRuntime().addShutdownHook(hook);
      engine
          .streams()
          .setStateListener(
              (next, previous) -> {
                LOG.info("Engine state {} -> {}", previous, next);
                if (next == KafkaStreams.State.ERROR || next == KafkaStreams.State.NOT_RUNNING) {
                  stopped.countDown();
                }
              });
      // The admission plugin serves from the start: while Kafka is away it is alive (/healthz)
      // but not ready (/readyz 503), and its answers say the engine's state is unavailable.
      plugin = EnginePlugin.start(config, engine, registry());
      // A broker that is away at start-up is waited for, not a reason to exit.
      final Optional<ProvisioningReport> report =
          engine.provisionTopics(wait -> !stopped.await(wait.toMillis(), TimeUnit.MILLISECONDS));
      if (report.isEmpty()) {
        LOG.info("Stopped before Kafka could be reached");
        return 0;
      }
      if (!report.get().allMatch()) {
        LOG.warn(
            "{} topics differ from what the engine expects (see above); running anyway",
            report.get().mismatched().size());
      }
      if (stopped.getCount() == 0) {
        return 0;
      }
      engine.start();
      stopped.await();
      return engine.streams().state() == KafkaStreams.State.ERROR ? 1 : 0;
    } finally {
      plugin.ifPresent(AdmissionServer::close);
      engine.close();
      running = null;
      finished.countDown();
      removeShutdownHook(hook);
    }
  }

  private void awaitFinished() {
    try {
      if (!finished.await(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.warn("The engine did not stop within {}", STOP_WAIT);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops a running engine cleanly, as SIGTERM does (through the shutdown hook). */
  public void stop() {
    final Engine engine = running;
    if (engine != null) {
      LOG.info("Shutdown requested");
      engine.close();
    }
    stopped.countDown();
  }
}
