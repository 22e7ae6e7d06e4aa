package io.quotaflow.engine;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.errors.StreamThreadFailures;
import io.quotaflow.engine.memory.MemoryFit;
import io.quotaflow.engine.memory.StoreFootprint;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.metrics.StoreMeterTags;
import io.quotaflow.engine.query.RuntimeQueries;
import io.quotaflow.engine.recovery.CommittedRecordReader;
import io.quotaflow.engine.recovery.ConsumerPositions;
import io.quotaflow.engine.recovery.EngineHealth;
import io.quotaflow.engine.recovery.GroupResumeOffsets;
import io.quotaflow.engine.recovery.InputResumeAudit;
import io.quotaflow.engine.recovery.MainConsumers;
import io.quotaflow.engine.recovery.RestoreAudit;
import io.quotaflow.engine.recovery.SharedAdmin;
import io.quotaflow.engine.recovery.StartupRetry;
import io.quotaflow.kafka.ClientSettings;
import io.quotaflow.topics.ProvisioningReport;
import io.quotaflow.topics.TopicCatalogue;
import io.quotaflow.topics.TopicCheck;
import io.quotaflow.topics.TopicProvisioner;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running instance of the engine: the topology in a {@link KafkaStreams} application, its
 * meters bound to a registry. Wired by constructor; {@link #close()} is idempotent and closes in
 * reverse order of opening.
 */
public final class Engine implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);
  private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

  private final EngineConfig config;
  private final TopicCatalogue topics;
  private final EngineMetrics metrics;
  private final KafkaStreams streams;
  private final KafkaStreamsMetrics streamsMetrics;
  private final SharedAdmin admin;
  private final EngineHealth health;
  private final StoreFootprint footprint;
  private volatile StartupRetry provisioning;
  private boolean closed;

  /**
   * An engine for {@code config}, not started yet.
   *
   * @param config the effective configuration (bootstrap.servers required)
   * @param registry where the engine's and Kafka Streams' meters go
   */
  public Engine(final EngineConfig config, final MeterRegistry registry) {
    this.config = Objects.requireNonNull(config, "config");
    final MemoryFit memory = MemoryFit.of(config).requireFits();
    LOG.info("Memory: {}", memory.arithmetic());
    memory.historyCost().ifPresent(cost -> LOG.info("Memory: {}", cost));
    this.topics = config.topics();
    // Before any meter of the engine; a registry made elsewhere should have it already.
    StoreMeterTags.unify(registry);
    this.metrics = new EngineMetrics(registry, config.get(EngineSettings.METRICS_GROUP_GAUGES_MAX));
    this.admin = new SharedAdmin(adminSettings());
    final RestoreAudit restores =
        new RestoreAudit(exactlyOnce(config), partitions -> admin.firstOffsets(partitions));
    final String group = config.kafka().get(StreamsConfig.APPLICATION_ID_CONFIG);
    final InputResumeAudit resumes =
        new InputResumeAudit(
            new GroupResumeOffsets(
                admin, group, GroupResumeOffsets.resetsToEarliest(config.kafka())),
            new CommittedRecordReader(
                ClientSettings.knownTo(ConsumerConfig.configNames(), config.kafka())),
            metrics::inputsSkipped);
    final Topology topology = QuotaTopology.build(topics, config, metrics, restores, resumes);
    final MainConsumers consumers = new MainConsumers();
    resumes.readPositionsWith(
        new ConsumerPositions(
            consumers,
            ConsumerPositions.inputsOf(topology.describe(), TopologyNames.CLUSTER_QUOTA, group)));
    this.streams =
        new KafkaStreams(
            topology, QuotaTopology.streamsProperties(topics, config, metrics), consumers);
    this.streams.setGlobalStateRestoreListener(restores);
    this.health =
        new EngineHealth(
            admin::get,
            tasksInputTopics(config),
            metrics,
            config.get(EngineSettings.HEALTH_CHECK_INTERVAL),
            Clock.systemUTC());
    // A bad record goes to the dead-letter topic before this; here a transient failure replaces
    // the thread, a fatal one or a crash loop shuts the instance down (see StreamThreadFailures).
    this.streams.setUncaughtExceptionHandler(
        new StreamThreadFailures(
            config.get(EngineSettings.STREAM_THREAD_MAX_REPLACEMENTS),
            config.get(EngineSettings.STREAM_THREAD_REPLACEMENT_WINDOW),
            Clock.systemUTC(),
            metrics));
    this.footprint =
        new StoreFootprint(
            admin::get,
            streams::metadataForLocalThreads,
            config.kafka().get(StreamsConfig.APPLICATION_ID_CONFIG),
            topology.describe(),
            QuotaTopology.storesOnHeap(topology.describe(), config),
            memory.maxHeap(),
            registry,
            config.get(EngineSettings.METRICS_STORE_BYTES_INTERVAL));
    this.metrics.bindState(streams);
    this.streamsMetrics = new KafkaStreamsMetrics(streams);
    this.streamsMetrics.bindTo(registry);
  }

  /**
   * Creates the catalogue's missing topics and checks the existing ones; differences are logged and
   * reported, never altered.
   */
  public ProvisioningReport provisionTopics() {
    try (Admin admin = Admin.create(adminSettings())) {
      final ProvisioningReport report =
          new TopicProvisioner(admin, adminTimeout())
              .provision(
                  topics.all(),
                  config.get(EngineSettings.TOPIC_PARTITIONS),
                  config.get(EngineSettings.TOPIC_REPLICATION_FACTOR).shortValue());
      // The provisioner has logged each topic's check, mismatches included.
      if (!report.created().isEmpty()) {
        LOG.info("Created topics {}", report.created());
      }
      if (config.get(EngineSettings.INPUTS_PARTITIONED_BY_CLUSTER)) {
        requireInputsAsCatalogued(report);
      }
      return report;
    }
  }

  /**
   * {@link #provisionTopics()} until it works: while Kafka cannot be reached (a broker down at
   * start-up, its name not resolvable yet) it is tried again after {@code startup.retry.backoff},
   * doubling up to {@code startup.retry.max.backoff}, each failure logged at WARN; meanwhile {@link
   * #problem()} says so (readiness false) and the process stays alive. A topic that differs from
   * what the engine needs fails at once, as it would every time.
   *
   * @param pause waits between attempts; false ends the retrying (the process is stopping)
   * @return the report; empty when the pause said to stop first
   * @throws InterruptedException when the thread is interrupted while waiting
   */
  public Optional<ProvisioningReport> provisionTopics(final StartupRetry.Pause pause)
      throws InterruptedException {
    final StartupRetry retry =
        new StartupRetry(
            "Creating and checking the topics",
            config.get(EngineSettings.STARTUP_RETRY_BACKOFF),
            config.get(EngineSettings.STARTUP_RETRY_MAX_BACKOFF),
            pause,
            Clock.systemUTC());
    provisioning = retry;
    try {
      return retry.run(this::provisionTopics);
    } finally {
      provisioning = null;
    }
  }

  /**
   * Without the repartition hop a record's partition decides where its cluster is computed, and the
   * engine places clusters by {@code topic.partitions}: an input topic with another partition count
   * would have every misplaced record rejected.
   */
  private void requireInputsAsCatalogued(final ProvisioningReport report) {
    final List<String> inputs =
        List.of(
            topics.pods().name(),
            topics.quotas().name(),
            topics.nodes().name(),
            topics.profiles().name(),
            topics.podGroups().name(),
            topics.deviceClasses().name(),
            topics.resourceClaims().name(),
            topics.resourceClaimTemplates().name(),
            topics.resourceSlices().name());
    final List<TopicCheck> differing =
        report.mismatched().stream().filter(check -> inputs.contains(check.topic())).toList();
    if (!differing.isEmpty()) {
      throw new IllegalStateException(
          "inputs.partitioned.by.cluster (the default) needs the input topics with"
              + " topic.partitions="
              + config.get(EngineSettings.TOPIC_PARTITIONS)
              + " partitions, each cluster on the partition ClusterPartitioner gives it: "
              + differing
              + "; set topic.partitions to their count, or inputs.partitioned.by.cluster=false"
              + " for inputs placed by key");
    }
  }

  /** Starts processing. */
  public void start() {
    LOG.info(
        "Starting the engine, application.id {}",
        config.kafka().get(StreamsConfig.APPLICATION_ID_CONFIG));
    streams.start();
    health.start();
    footprint.start();
  }

  /**
   * Why this instance should not receive traffic now (it cannot reach Kafka, so cannot commit);
   * empty when nothing is known to be wrong. Kafka Streams' own state is not included.
   */
  public Optional<String> problem() {
    final StartupRetry retry = provisioning;
    final Optional<String> starting = retry == null ? Optional.empty() : retry.problem();
    if (starting.isPresent()) {
      return Optional.of(
          "the engine has not started: "
              + starting.get()
              + "; it keeps trying until Kafka answers");
    }
    return health.problem();
  }

  /** The instance's health checks. */
  public EngineHealth health() {
    return health;
  }

  /** The Kafka Streams application, e.g. for a state listener or interactive queries. */
  public KafkaStreams streams() {
    return streams;
  }

  /** Queries over this instance's stores; valid once the application is running. */
  public RuntimeQueries queries() {
    return RuntimeQueries.of(streams);
  }

  /** The engine's own meters. */
  public EngineMetrics metrics() {
    return metrics;
  }

  /** Stops processing, committing what was processed, within the shutdown timeout. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    final Duration timeout = config.get(EngineSettings.SHUTDOWN_TIMEOUT);
    // A dynamic member leaves its group, so the others (or this instance restarted) get its tasks
    // at once; a static one stays, so its restart under the same name gets them back without a
    // rebalance.
    final boolean clean =
        streams.close(
            CloseOptions.groupMembershipOperation(
                    isStaticMember()
                        ? CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP
                        : CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(timeout));
    streamsMetrics.close();
    health.close();
    footprint.close();
    admin.close();
    if (clean) {
      LOG.info("Engine closed");
    } else {
      LOG.warn("Engine did not close within {}", timeout);
    }
  }

  /** Whether the main consumer has a {@code group.instance.id} (static membership). */
  private boolean isStaticMember() {
    final Map<String, String> kafka = config.kafka();
    return kafka.containsKey(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG)
        || kafka.containsKey(StreamsConfig.consumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG))
        || kafka.containsKey(
            StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG));
  }

  /** Under exactly-once a task closed dirty loses its state (see RestoreAudit). */
  private static boolean exactlyOnce(final EngineConfig config) {
    return config
        .kafka(StreamsConfig.PROCESSING_GUARANTEE_CONFIG)
        .map(guarantee -> guarantee.startsWith("exactly_once"))
        .orElse(false);
  }

  /** The topics the cluster-quota tasks read, each task its partition of each. */
  private static List<String> tasksInputTopics(final EngineConfig config) {
    final TopicCatalogue topics = config.topics();
    if (config.get(EngineSettings.INPUTS_PARTITIONED_BY_CLUSTER)) {
      return List.of(
          topics.pods().name(),
          topics.quotas().name(),
          topics.nodes().name(),
          topics.profiles().name(),
          topics.podGroups().name(),
          topics.deviceClasses().name(),
          topics.resourceClaims().name(),
          topics.resourceClaimTemplates().name(),
          topics.resourceSlices().name());
    }
    return List.of(
        config.kafka().get(StreamsConfig.APPLICATION_ID_CONFIG)
            + "-"
            + TopologyNames.CLUSTER_EVENTS
            + "-repartition");
  }

  /** Kafka's {@code default.api.timeout.ms} when it is set, else 30 s. */
  private Duration adminTimeout() {
    return config
        .kafka(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG)
        .map(ms -> Duration.ofMillis(Long.parseLong(ms.trim())))
        .orElse(ADMIN_TIMEOUT);
  }

  private Map<String, Object> adminSettings() {
    return ClientSettings.knownTo(AdminClientConfig.configNames(), config.kafka());
  }
}
