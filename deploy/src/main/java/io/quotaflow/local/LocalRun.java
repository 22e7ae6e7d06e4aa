package io.quotaflow.local;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.admission.http.AdmissionServer;
import io.quotaflow.admission.http.EnginePlugin;
import io.quotaflow.admission.http.PluginSettings;
import io.quotaflow.admission.http.auth.ApiAuth;
import io.quotaflow.admission.http.auth.CachedAccess;
import io.quotaflow.admission.http.auth.KubernetesAccess;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.cluster.GroupMembership;
import io.quotaflow.cluster.KubeClients;
import io.quotaflow.cluster.KubeCluster;
import io.quotaflow.cluster.Sleeper;
import io.quotaflow.connect.LeaderElectionSettings;
import io.quotaflow.connect.Leadership;
import io.quotaflow.engine.Engine;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.config.HistorySettings;
import io.quotaflow.engine.metrics.StoreMeterTags;
import io.quotaflow.evict.EvictionExecutor;
import io.quotaflow.evict.EvictionSettings;
import io.quotaflow.simulate.BadInputException;
import io.quotaflow.simulate.Manifest;
import io.quotaflow.simulate.ManifestReader;
import io.quotaflow.source.KubeSource;
import io.quotaflow.source.SourceSettings;
import io.quotaflow.status.StatusSettings;
import io.quotaflow.status.StatusWriter;
import io.quotaflow.topics.TopicCatalogue;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything {@code quotaflow local} runs, started in dependency order and closed in reverse: the
 * Kafka broker (or an existing Kafka), the clusters (the demo cluster or real ones), the source,
 * the engine with the admission plugin, the eviction executor and the status writer. Wired by
 * constructor; {@link #close()} is idempotent.
 */
final class LocalRun implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(LocalRun.class);

  /** The Kafka Streams application id of the local engine. */
  static final String APPLICATION_ID = "quotaflow-local";

  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  /**
   * How long the engine may make no progress while starting. Longer than the consumer's API timeout
   * (60 s): a stream thread whose committed offsets are held by a crashed run's open transaction
   * retries after that timeout, and a bound equal to it gave up at the same moment.
   */
  private static final Duration ENGINE_STALL_LIMIT = Duration.ofSeconds(150);

  private static final String EVICTION_GROUP = APPLICATION_ID + "-evictions";
  private static final String STATUS_GROUP = APPLICATION_ID + "-status";

  /** Streams' part of a stop that must end within 5 s. */
  private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(3);

  /** Short: one process competes, and a restarted one holds the lease under the same name. */
  private static final LeaderElectionSettings LEADER_ELECTION =
      new LeaderElectionSettings(
          "quotaflow-local-connectors",
          "default",
          Duration.ofSeconds(6),
          Duration.ofSeconds(4),
          Duration.ofSeconds(1));

  private static final Duration TREE_INTERVAL = Duration.ofMillis(500);

  /** How often long work (loading the demo cluster, the engine catching up) says how far it is. */
  static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(3);

  private final Deque<AutoCloseable> opened = new ConcurrentLinkedDeque<>();
  private final LocalSettings settings;
  private final long startNanos = System.nanoTime();
  private Path dataDir;
  private String bootstrapServers;
  private volatile Optional<DemoCluster> demo = Optional.empty();
  private List<KubeCluster> clusters = List.of();
  private EngineConfig engineConfig;
  private Engine engine;
  private Optional<AdmissionServer> admission = Optional.empty();
  private Duration readyAfter;
  private volatile boolean closed;

  private LocalRun(final LocalSettings settings) {
    this.settings = settings;
  }

  /**
   * Starts everything and returns once the engine serves the first computed tree of every cluster.
   *
   * @param out where the tree tables are printed
   * @throws PortInUseException when a port asked for is taken, naming the option that changes it
   */
  static LocalRun start(final LocalSettings settings, final PrintWriter out) {
    final LocalRun run = new LocalRun(settings);
    try {
      run.startAll(out);
      return run;
    } catch (final RuntimeException e) {
      run.close();
      throw e;
    }
  }

  private void startAll(final PrintWriter out) {
    if (settings.httpPort() != 0) {
      requireFree(settings.httpPort(), "--http-port");
    }
    dataDir = dataDir();
    // A setting that does not parse is refused before anything starts.
    engineConfig(settings, settings.bootstrapServers().orElse("localhost:9092"), dataDir);
    // The broker and the demo cluster take seconds each to start: start them side by side.
    final CompletableFuture<List<KubeCluster>> watched =
        CompletableFuture.supplyAsync(
            () -> settings.demo() ? List.of(startDemo()) : realClusters());
    try {
      bootstrapServers = settings.bootstrapServers().orElseGet(this::startBroker);
    } catch (final RuntimeException e) {
      // Let the clusters finish starting, so that close() finds them to stop.
      watched.exceptionally(failure -> List.of()).join();
      throw e;
    }
    try {
      clusters = watched.join();
    } catch (final CompletionException e) {
      throw e.getCause() instanceof RuntimeException cause ? cause : e;
    }
    engineConfig = engineConfig(settings, bootstrapServers, dataDir);
    final TopicCatalogue topics = engineConfig.topics();
    final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    StoreMeterTags.unify(registry);
    engine = new Engine(engineConfig, registry);
    opened.push(engine);
    // A Kafka given with --bootstrap-servers that is not up yet is waited for.
    try {
      engine.provisionTopics(
          wait -> {
            Thread.sleep(wait.toMillis());
            return !closed;
          });
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for Kafka", e);
    }
    final Map<String, Object> kafka =
        Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    final KubeSource source =
        new KubeSource(clusters, topics, kafka, SourceSettings.defaults(), registry);
    opened.push(source);
    final long listing = System.nanoTime();
    LOG.info("Connectors: listing and watching the clusters' ElasticQuotas, pods and nodes");
    source.start().orTimeout(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS).join();
    LOG.info("Connectors: in sync after {} ms; starting the engine", millisSince(listing));
    final EngineCatchUp catchUp =
        EngineCatchUp.fromNow(
            kafka,
            String.valueOf(engineConfig.kafka().get(StreamsConfig.APPLICATION_ID_CONFIG)),
            List.of(
                topics.pods().name(),
                topics.quotas().name(),
                topics.nodes().name(),
                topics.profiles().name(),
                topics.podGroups().name(),
                topics.deviceClasses().name(),
                topics.resourceClaims().name(),
                topics.resourceClaimTemplates().name(),
                topics.resourceSlices().name()));
    opened.push(catchUp);
    engine.start();
    admission =
        EnginePlugin.start(
            engineConfig,
            engine,
            registry,
            settings.auth()
                ? Optional.of(
                    ApiAuth.with(
                        new CachedAccess(
                            new KubernetesAccess(clusters.get(0).client()),
                            Duration.ofSeconds(30),
                            Clock.systemUTC(),
                            10_000)))
                : Optional.empty());
    admission.ifPresent(opened::push);
    final boolean writes = settings.demo() || settings.evict();
    final ConnectorsTerm connectors = new ConnectorsTerm(topics, kafka, writes, registry, source);
    if (writes) {
      // As in a deployment, the executor and the writer run only while this process holds the
      // lease (on the demo cluster, the mock API server stores it).
      opened.push(
          Leadership.start(
              clusters.get(0).client(),
              LEADER_ELECTION,
              GroupMembership.instanceName(),
              epoch -> connectors.begin(),
              connectors::end));
    } else {
      opened.push(connectors::end);
      connectors.begin();
    }
    awaitFirstTrees(out, catchUp);
    catchUp.close();
    readyAfter = Duration.ofNanos(System.nanoTime() - startNanos);
    LOG.info(
        "quotaflow local ready in {} ms: Kafka at {}, clusters {}, {}",
        readyAfter.toMillis(),
        bootstrapServers,
        clusters.stream().map(KubeCluster::name).toList(),
        admission
            .map(server -> "admission plugin and query API at " + baseUrl(server))
            .orElse("admission plugin off"));
    if (!writes) {
      LOG.info("Evictions are dry-run and no status is written: pass --evict to change that");
    }
    // The web view first, before the tables start scrolling past.
    admission.ifPresent(
        server -> {
          out.printf("Web view of the quota tree: %s/%n%n", baseUrl(server));
          demo.filter(cluster -> settings.auth())
              .ifPresent(
                  cluster ->
                      out.printf(
                          "People sign in (--auth). A cluster admin's token: %s%n"
                              + "A tenant's, who may read namespace %s only: %s%n"
                              + "e.g. curl -H 'Authorization: Bearer %s' %s/api/v1/clusters/%s/quotas%n%n",
                          cluster.people().adminToken(),
                          DemoPeople.TENANT_NAMESPACE,
                          cluster.people().tenantToken(),
                          cluster.people().tenantToken(),
                          baseUrl(server),
                          DemoCluster.NAME));
          out.flush();
        });
    opened.push(
        new TreePrinter(engine, clusters, engineConfig.quotaOptions(), out, TREE_INTERVAL).start());
  }

  /**
   * The eviction executor and the status writer (this one only where quotaflow writes) of one term
   * as leader; a new term first removes the members an earlier one left in their groups.
   */
  private final class ConnectorsTerm {
    private final TopicCatalogue topics;
    private final Map<String, Object> kafka;
    private final boolean writes;
    private final PrometheusMeterRegistry registry;
    private final KubeSource source;
    private final List<AutoCloseable> running = new ArrayList<>();
    private boolean ended;

    ConnectorsTerm(
        final TopicCatalogue topics,
        final Map<String, Object> kafka,
        final boolean writes,
        final PrometheusMeterRegistry registry,
        final KubeSource source) {
      this.topics = topics;
      this.kafka = kafka;
      this.writes = writes;
      this.registry = registry;
      this.source = source;
    }

    synchronized void begin() {
      if (ended || !running.isEmpty()) {
        return;
      }
      GroupMembership.removeDeparted(
          kafka, EVICTION_GROUP, member -> true, GroupMembership.ADMIN_TIMEOUT);
      final EvictionExecutor executor =
          new EvictionExecutor(
              clusters,
              topics,
              kafka,
              EvictionSettings.defaults().withDryRun(!writes).withGroupId(EVICTION_GROUP),
              Clock.systemUTC(),
              Sleeper.SYSTEM,
              registry);
      running.add(executor);
      executor.checkInputsWith(source::staleness);
      executor.start();
      if (writes) {
        GroupMembership.removeDeparted(
            kafka, STATUS_GROUP, member -> true, GroupMembership.ADMIN_TIMEOUT);
        final StatusWriter writer =
            new StatusWriter(
                clusters,
                topics,
                kafka,
                new StatusSettings(
                    Duration.ofMillis(500), 10.0, 20, Duration.ofHours(1), STATUS_GROUP),
                Clock.systemUTC(),
                Sleeper.SYSTEM,
                registry);
        running.add(writer);
        writer.start();
      }
    }

    synchronized void end() {
      for (int i = running.size() - 1; i >= 0; i--) {
        try {
          running.get(i).close();
        } catch (final Exception e) {
          LOG.warn("Closing {} failed", running.get(i).getClass().getSimpleName(), e);
        }
      }
      running.clear();
    }
  }

  /** The engine. */
  Engine engine() {
    return engine;
  }

  /** The engine's effective configuration. */
  EngineConfig engineConfig() {
    return engineConfig;
  }

  /** The clusters watched. */
  List<KubeCluster> clusters() {
    return clusters;
  }

  /** The demo cluster, when no real clusters are watched. */
  Optional<DemoCluster> demo() {
    return demo;
  }

  /** {@code http://127.0.0.1:PORT} of the admission plugin and query API, when it runs. */
  Optional<String> adminUrl() {
    return admission.map(LocalRun::baseUrl);
  }

  /** The Kafka the run uses. */
  String bootstrapServers() {
    return bootstrapServers;
  }

  /** How long the start took until the first trees were computed. */
  Duration readyAfter() {
    return readyAfter;
  }

  /** Stops everything, in reverse order of start; then removes a temporary data directory. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    while (!opened.isEmpty()) {
      final AutoCloseable next = opened.pop();
      try {
        next.close();
      } catch (final Exception e) {
        LOG.warn("Closing {} failed", next.getClass().getSimpleName(), e);
      }
    }
  }

  private static String baseUrl(final AdmissionServer server) {
    return server.scheme() + "://127.0.0.1:" + server.port();
  }

  private Path dataDir() {
    try {
      if (settings.dataDir().isPresent()) {
        return Files.createDirectories(settings.dataDir().get());
      }
      final Path temporary = Files.createTempDirectory("quotaflow-local-");
      opened.push(() -> Utils.delete(temporary.toFile()));
      return temporary;
    } catch (final IOException e) {
      throw new UncheckedIOException("Cannot create the data directory", e);
    }
  }

  private String startBroker() {
    final EmbeddedKafkaBroker broker = LocalBroker.start(dataDir, settings.kafkaPort());
    opened.push(broker);
    return broker.bootstrapServers();
  }

  private KubeCluster startDemo() {
    final DemoGeneration generation = DemoGeneration.in(dataDir);
    generation.startUids();
    final DemoCluster cluster = DemoCluster.start(generation::podEvicted);
    opened.push(cluster);
    demo = Optional.of(cluster);
    final List<Path> files =
        settings.scenario().map(Scenario::cluster).orElse(List.of(settings.examples()));
    final long reading = System.nanoTime();
    LOG.info("Demo cluster: reading {}", files);
    final List<HasMetadata> objects = read(files);
    final int total = objects.size();
    LOG.info(
        "Demo cluster: loading {} objects (read in {} ms)", count(total), millisSince(reading));
    final long loading = System.nanoTime();
    final ProgressTicker ticker = ProgressTicker.every(PROGRESS_INTERVAL);
    cluster.load(
        objects,
        loaded -> {
          if (ticker.due()) {
            LOG.info("Demo cluster: {} of {} objects loaded", count(loaded), count(total));
          }
        });
    LOG.info("Demo cluster: {} objects loaded in {} ms", count(total), millisSince(loading));
    return cluster.cluster();
  }

  private static String count(final long number) {
    return String.format(Locale.ROOT, "%,d", number);
  }

  private static long millisSince(final long startNanos) {
    return Duration.ofNanos(System.nanoTime() - startNanos).toMillis();
  }

  private List<KubeCluster> realClusters() {
    final List<KubeCluster> real = new ArrayList<>();
    new TreeMap<>(settings.clusters())
        .forEach(
            (name, context) -> {
              final KubeCluster cluster =
                  new KubeCluster(name, KubeClients.forContext(settings.kubeconfig(), context));
              opened.push(cluster.client());
              real.add(cluster);
            });
    return List.copyOf(real);
  }

  /** The people who may sign in, when the demo cluster runs. */
  Optional<DemoPeople> people() {
    return demo.map(DemoCluster::people);
  }

  /**
   * The local engine's configuration: local's defaults, then the user's {@code --config} and {@code
   * --set}, then what local decides itself (Kafka, state directory, the plugin's port).
   *
   * @throws IllegalArgumentException naming the setting whose value does not parse
   */
  static EngineConfig engineConfig(
      final LocalSettings settings, final String bootstrapServers, final Path dataDir) {
    final EngineConfig.Builder builder =
        EngineConfig.builder()
            .set(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers)
            .set(StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID)
            .set(StreamsConfig.STATE_DIR_CONFIG, dataDir.resolve("state").toString())
            // Seen in the table within a second rather than after the default 30 s commit.
            .set(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "100")
            .set(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0")
            .set(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), "6000")
            .set(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), "500")
            // A static member: restarted after a crash, it takes its tasks back at once instead
            // of waiting for its predecessor's session to end.
            .set(
                StreamsConfig.consumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG),
                APPLICATION_ID + "-" + GroupMembership.instanceName())
            .set(EngineSettings.TOPIC_PARTITIONS.key(), "1")
            .set(EngineSettings.REVOKE_CHECK_INTERVAL.key(), "500ms")
            // A scenario plays in seconds: the web view's chart of the last 10 minutes shows it
            // step by step only if the history is kept at a few seconds rather than a minute.
            .set(HistorySettings.HISTORY_STEP.key(), "5s")
            .set(EngineSettings.SHUTDOWN_TIMEOUT.key(), SHUTDOWN_TIMEOUT.toSeconds() + "s")
            // The scenario's settings (fair share with memory, say) over local's defaults.
            .setAll(settings.scenario().map(Scenario::settings).orElse(Map.of()))
            // The user's settings over those, under what local must decide itself.
            .setAll(settings.engineSettings())
            .set(PluginSettings.PLAIN_HTTP.key(), "true")
            .set(
                PluginSettings.BIND_ADDRESS.key(),
                InetAddress.getLoopbackAddress().getHostAddress())
            .set(PluginSettings.PORT.key(), Integer.toString(settings.httpPort()));
    // --revoke-delay, else a --set or --config revoke.delay, else the scenario's.
    settings
        .revokeDelay()
        .or(
            () ->
                settings.engineSettings().containsKey(EngineSettings.REVOKE_DELAY.key())
                    ? Optional.empty()
                    : settings.scenario().flatMap(Scenario::revokeDelay))
        .ifPresent(delay -> builder.set(EngineSettings.REVOKE_DELAY.key(), delay));
    return builder.build();
  }

  private static List<HasMetadata> read(final List<Path> files) {
    try {
      return new ManifestReader(warning -> LOG.warn("{}", warning))
          .read(files).stream().map(Manifest::object).toList();
    } catch (final BadInputException e) {
      throw new IllegalArgumentException("Cannot load the demo cluster: " + e.getMessage(), e);
    }
  }

  /**
   * Waits until the engine serves a tree of every cluster, computed from everything the connectors
   * had written when they were in sync: the whole organisation, not the part read so far. Gives up
   * when it has read nothing more for {@link #ENGINE_STALL_LIMIT}.
   */
  private void awaitFirstTrees(final PrintWriter out, final EngineCatchUp catchUp) {
    long deadline = System.nanoTime() + ENGINE_STALL_LIMIT.toNanos();
    long lastBehind = Long.MAX_VALUE;
    final TreePrinter probe =
        new TreePrinter(engine, clusters, engineConfig.quotaOptions(), out, TREE_INTERVAL);
    final ProgressTicker ticker = ProgressTicker.every(PROGRESS_INTERVAL);
    while (true) {
      final KafkaStreams.State state = engine.streams().state();
      if (state == KafkaStreams.State.ERROR || state == KafkaStreams.State.NOT_RUNNING) {
        throw new IllegalStateException("The engine stopped while starting (state " + state + ")");
      }
      final boolean trees =
          state == KafkaStreams.State.RUNNING
              && clusters.stream().allMatch(cluster -> probe.snapshot(cluster).isPresent());
      final boolean due = ticker.due();
      if (trees || due) {
        final OptionalLong behind = catchUp.behind();
        if (trees && behind.orElse(0) == 0) {
          return;
        }
        if (behind.isPresent() && behind.getAsLong() < lastBehind) {
          lastBehind = behind.getAsLong();
          deadline = System.nanoTime() + ENGINE_STALL_LIMIT.toNanos();
        }
        if (due) {
          LOG.info("Engine: starting ({}), {}", state, progress(behind, catchUp.total()));
        }
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "The engine computed no tree within " + ENGINE_STALL_LIMIT.toSeconds() + " s");
      }
      sleepBriefly();
    }
  }

  private String progress(final OptionalLong behind, final long total) {
    final EngineLag lag = EngineLag.of(engine.streams().metrics());
    final String restoring =
        lag.restoring() > 0
            ? String.format(Locale.ROOT, "%,d changelog records to restore, ", lag.restoring())
            : "";
    return behind.isPresent()
        ? restoring
            + String.format(
                Locale.ROOT,
                "%,d of the connectors' %,d records still to read",
                behind.getAsLong(),
                total)
        : lag.describe();
  }

  private static void sleepBriefly() {
    try {
      Thread.sleep(100);
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while starting", e);
    }
  }

  private static void requireFree(final int port, final String option) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    } catch (final IOException e) {
      throw new PortInUseException(port, option, "the admission plugin and query API");
    }
  }
}
