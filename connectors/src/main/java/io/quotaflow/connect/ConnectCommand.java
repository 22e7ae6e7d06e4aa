package io.quotaflow.connect;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.cluster.KubeClients;
import io.quotaflow.cluster.KubeCluster;
import io.quotaflow.engine.liveness.Heartbeats;
import io.quotaflow.kafka.KafkaSecurity;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code quotaflow connect}: runs the connectors between Kubernetes clusters and Kafka until the
 * process is stopped. Creates missing topics first, logs its effective configuration (secrets
 * masked), serves its meters for Prometheus on {@code metrics.port} ({@link MetricsEndpoint}), and
 * on SIGTERM stops the consumers and flushes the source's producer before exiting.
 */
@Command(
    name = "connect",
    mixinStandardHelpOptions = true,
    description = {
      "Connect Kubernetes clusters to quotaflow: publish their pods, ElasticQuotas and nodes,"
          + " carry out eviction commands, and write runtimes back to the ElasticQuotas.",
      "Settings come from --config, then QUOTAFLOW_* environment variables (e.g."
          + " QUOTAFLOW_EVICTION_MAX_ATTEMPTS=3, QUOTAFLOW_KAFKA_SECURITY_PROTOCOL=SSL), then the"
          + " options below."
    })
public final class ConnectCommand extends ServiceCommand {

  private static final Logger LOG = LoggerFactory.getLogger(ConnectCommand.class);

  /** How long SIGTERM waits for everything to stop; the stop itself is bounded below 5 s. */
  private static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(5);

  @Spec private CommandSpec spec;

  @Option(
      names = "--cluster",
      paramLabel = "NAME=CONTEXT",
      description =
          "A cluster to connect to: the name its records carry, and its kubeconfig context."
              + " Repeatable.")
  private Map<String, String> clusters = new LinkedHashMap<>();

  @Option(
      names = "--kubeconfig",
      paramLabel = "FILE",
      description =
          "Kubeconfig file of the --cluster contexts (default: KUBECONFIG or ~/.kube/config).")
  private Path kubeconfig;

  @Option(
      names = "--in-cluster",
      paramLabel = "NAME",
      description =
          "Also connect to the cluster this process runs in (its service account), as NAME.")
  private String inCluster;

  @Option(names = "--no-source", description = "Do not publish the clusters' objects.")
  private boolean noSource;

  @Option(names = "--no-evict", description = "Do not carry out eviction commands.")
  private boolean noEvict;

  @Option(names = "--dry-run", description = "Decide evictions and report DRY_RUN, never evict.")
  private boolean dryRun;

  @Option(names = "--no-status", description = "Do not write runtimes to the ElasticQuotas.")
  private boolean noStatus;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "Properties file with connect settings and Kafka client settings.")
  private Path configFile;

  private final CountDownLatch stop = new CountDownLatch(1);
  private volatile MetricsEndpoint metrics;

  /**
   * The command as the launcher runs it: the process environment, meters served on {@code
   * /metrics}.
   */
  public ConnectCommand() {
    this(System.getenv(), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
  }

  /**
   * @param environment where {@code QUOTAFLOW_*} variables are read
   * @param registry where meters go; served on {@code /metrics} unless {@code metrics.port} is -1
   */
  public ConnectCommand(
      final Map<String, String> environment, final PrometheusMeterRegistry registry) {
    super(environment, registry);
  }

  /** The configuration the file, the environment and the options give, in that precedence. */
  ConnectConfig configuration() {
    final ConnectConfig.Builder builder = ConnectConfig.builder();
    if (configFile != null) {
      builder.file(configFile);
    }
    builder.environment(environment());
    builder.set(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    if (dryRun) {
      builder.set(ConnectSettings.EVICTION_DRY_RUN.key(), "true");
    }
    return builder.build();
  }

  /** Which connectors the options enable. */
  Connectors.Enabled enabled() {
    return new Connectors.Enabled(!noSource, !noEvict, !noStatus);
  }

  /** The clusters the options name, as name to where its client comes from. */
  Map<String, String> clusterSources() {
    final Map<String, String> sources = new LinkedHashMap<>();
    clusters.forEach((name, context) -> sources.put(name, "context " + context));
    if (inCluster != null) {
      if (sources.containsKey(inCluster)) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "Cluster name '" + inCluster + "' is given twice");
      }
      sources.put(inCluster, "in-cluster service account");
    }
    if (sources.isEmpty()) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "Name at least one cluster with --cluster or --in-cluster");
    }
    return sources;
  }

  @Override
  public Integer call() throws InterruptedException {
    final ConnectConfig config = configuration();
    if (config.get(ConnectSettings.LEADER_ELECTION)) {
      // Fail on leader election settings that do not fit together before anything starts.
      ConnectSettings.leaderElection(config);
    }
    // And on status conflict settings that do not (a maximum wait below the first one).
    StatusWriterSettings.status(config);
    final Connectors.Enabled enabled = enabled();
    if (!enabled.any()) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--no-source, --no-evict and --no-status leave nothing to run");
    }
    final Map<String, String> sources = clusterSources();
    LOG.info(
        "Effective configuration:\n  clusters = {}\n  kubeconfig = {}\n  source = {}, evict = {},"
            + " status = {}\n  {}",
        sources,
        kubeconfig == null ? "(default)" : kubeconfig,
        enabled.source(),
        enabled.evict(),
        enabled.status(),
        String.join("\n  ", config.describe()));
    // Fail on TLS and SASL settings a Kafka client would trip over, before any client starts.
    KafkaSecurity.check(config.kafka());
    KafkaSecurity.requireEncrypted(
        config.kafka(),
        config.get(ConnectSettings.ALLOW_PLAINTEXT_KAFKA),
        ConnectSettings.ALLOW_PLAINTEXT_KAFKA.key());

    try (JvmMeters jvm = JvmMeters.bindTo(registry())) {
      final int port = config.get(ConnectSettings.METRICS_PORT);
      final Optional<MetricsEndpoint> endpoint =
          port == ConnectSettings.METRICS_OFF
              ? Optional.empty()
              : Optional.of(MetricsEndpoint.start(port, registry()));
      metrics = endpoint.orElse(null);
      try {
        return run(config, enabled, endpoint);
      } finally {
        metrics = null;
        endpoint.ifPresent(MetricsEndpoint::close);
      }
    }
  }

  /** Where the metrics endpoint listens, while {@link #call()} runs with it on. */
  Optional<InetSocketAddress> metricsAddress() {
    return Optional.ofNullable(metrics).map(MetricsEndpoint::address);
  }

  private int run(
      final ConnectConfig config,
      final Connectors.Enabled enabled,
      final Optional<MetricsEndpoint> endpoint)
      throws InterruptedException {
    final String instanceId = ConnectSettings.instanceId(config, environment());
    final Optional<LeaderElectionSettings> election =
        config.get(ConnectSettings.LEADER_ELECTION)
            ? Optional.of(ConnectSettings.leaderElection(config))
            : Optional.empty();
    final List<KubeCluster> clusters = clients();
    final Heartbeats loops = new Heartbeats(Clock.systemUTC());
    final Terms terms = new Terms(config, clusters, enabled, instanceId, loops);
    // Not ready while the connectors wait for Kafka at start-up; alive all the same, unless a
    // loop is wedged.
    endpoint.ifPresent(served -> served.readiness(terms::problem));
    endpoint.ifPresent(served -> served.heartbeats(loops));
    final CountDownLatch finished = new CountDownLatch(1);
    Leadership leadership = null;
    // The JVM halts when its hooks return: the hook stops everything and waits for run() to end.
    final Thread hook =
        new Thread(
            () -> {
              LOG.info("Shutdown requested");
              stop.countDown();
              awaitQuietly(finished);
            },
            "quotaflow-connect-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      if (election.isPresent()) {
        final KubeCluster lockCluster = leaseCluster(clusters);
        leadership =
            Leadership.start(
                lockCluster.client(), election.get(), instanceId, terms::begin, terms::end);
      } else {
        LOG.info("Leader election is off (leader.election=false): run a single replica");
        terms.begin();
      }
      stop.await();
      final boolean failed = terms.failed();
      if (failed) {
        LOG.error("A connector stopped by itself; stopping the others");
      }
      return failed ? 1 : 0;
    } finally {
      if (leadership != null) {
        leadership.close();
      }
      terms.end();
      endpoint.ifPresent(MetricsEndpoint::close);
      clusters.forEach(cluster -> closeQuietly(cluster.client()));
      finished.countDown();
      removeShutdownHook(hook);
    }
  }

  /**
   * The cluster whose Lease elects the leader: the one the process runs in ({@code --in-cluster}),
   * else the first {@code --cluster}.
   */
  private KubeCluster leaseCluster(final List<KubeCluster> clusters) {
    return clusters.stream()
        .filter(cluster -> cluster.name().equals(inCluster))
        .findFirst()
        .orElse(clusters.get(0));
  }

  /** The connectors of each term as leader (or of the whole run without leader election). */
  private final class Terms {
    private final ConnectConfig config;
    private final List<KubeCluster> clusters;
    private final Connectors.Enabled enabled;
    private final String instanceId;
    private final Heartbeats loops;
    private volatile Connectors current;
    private volatile boolean failed;
    private boolean ended;

    Terms(
        final ConnectConfig config,
        final List<KubeCluster> clusters,
        final Connectors.Enabled enabled,
        final String instanceId,
        final Heartbeats loops) {
      this.loops = loops;
      this.config = config;
      this.clusters = clusters;
      this.enabled = enabled;
      this.instanceId = instanceId;
    }

    /** Starts the connectors without leader election: the only writer, epoch 0. */
    void begin() {
      begin(0L);
    }

    /**
     * Starts the connectors (a new term, whose records carry {@code epoch}), unless the command is
     * stopping.
     */
    synchronized void begin(final long epoch) {
      if (ended || stop.getCount() == 0) {
        return;
      }
      try {
        final Connectors connectors =
            Connectors.start(config, clusters, enabled, registry(), instanceId, true, loops, epoch);
        current = connectors;
        connectors
            .anyStopped()
            .whenComplete(
                (done, error) -> {
                  if (!connectors.isClosed()) {
                    failed = true;
                    stop.countDown();
                  }
                });
      } catch (RuntimeException e) {
        LOG.error("Starting the connectors failed", e);
        failed = true;
        stop.countDown();
      }
    }

    /** Stops the connectors of the current term, if any. */
    synchronized void end() {
      if (current != null) {
        current.close();
        current = null;
      }
    }

    boolean failed() {
      return failed;
    }

    /** Why the current term's connectors are not ready (waiting for Kafka); empty otherwise. */
    Optional<String> problem() {
      final Connectors connectors = current;
      return connectors == null ? Optional.empty() : connectors.problem();
    }
  }

  private static void awaitQuietly(final CountDownLatch latch) {
    try {
      if (!latch.await(SHUTDOWN_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.warn("The connectors did not stop within {}", SHUTDOWN_WAIT);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void closeQuietly(final KubernetesClient client) {
    try {
      client.close();
    } catch (RuntimeException e) {
      LOG.warn("closing a Kubernetes client failed: {}", e.toString());
    }
  }

  /** Stops a running {@link #call()} as SIGTERM would, for callers that run it in-process. */
  public void requestStop() {
    stop.countDown();
  }

  private List<KubeCluster> clients() {
    final List<KubeCluster> result = new ArrayList<>();
    try {
      clusters.forEach(
          (name, context) ->
              result.add(
                  new KubeCluster(
                      name, KubeClients.forContext(Optional.ofNullable(kubeconfig), context))));
      if (inCluster != null) {
        result.add(new KubeCluster(inCluster, KubeClients.inCluster()));
      }
      return result;
    } catch (RuntimeException e) {
      result.stream().map(KubeCluster::client).forEach(KubernetesClient::close);
      throw e;
    }
  }
}
