package io.quotaflow.connect;

import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.cluster.GroupMembership;
import io.quotaflow.cluster.KubeCluster;
import io.quotaflow.cluster.Sleeper;
import io.quotaflow.engine.liveness.Heartbeats;
import io.quotaflow.engine.recovery.StartupRetry;
import io.quotaflow.evict.EvictionExecutor;
import io.quotaflow.source.KubeSource;
import io.quotaflow.status.StatusWriter;
import io.quotaflow.topics.ProvisioningReport;
import io.quotaflow.topics.TopicCatalogue;
import io.quotaflow.topics.TopicProvisioner;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connectors {@code quotaflow connect} runs, wired by constructor from one configuration, and
 * closed in the reverse order of their start.
 *
 * <p>They start on a thread of their own, so that a Kafka that is away does not stop the process:
 * creating the topics and the source's first read of them are tried again with a backoff ({@code
 * startup.retry.backoff} doubling up to {@code startup.retry.max.backoff}) until they work or the
 * connectors are closed, and {@link #problem()} says why they are not ready meanwhile.
 */
final class Connectors implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Connectors.class);
  private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(10);

  /** How long {@link #close()} waits for the start-up thread to notice it. */
  private static final Duration STARTER_JOIN = Duration.ofSeconds(2);

  /** Which connectors run. */
  record Enabled(boolean source, boolean evict, boolean status) {
    boolean any() {
      return source || evict || status;
    }
  }

  private final ConnectConfig config;
  private final Heartbeats loops;
  private final List<KubeCluster> clusters;
  private final Enabled enabled;
  private final MeterRegistry registry;
  private final boolean takeOver;
  private final Map<String, Object> consumers;
  private final TopicCatalogue topics;
  private final List<AutoCloseable> started = new ArrayList<>();
  private final CompletableFuture<Object> stoppedByItself = new CompletableFuture<>();
  private final CountDownLatch closing = new CountDownLatch(1);
  private final Thread starter;
  private final CompletableFuture<Void> running = new CompletableFuture<>();
  private volatile StartupRetry retry;
  private volatile boolean closed;
  // The source, once started: the executor asks it whether a command's inputs were whole.
  private volatile KubeSource source;
  // The term's epoch, on every record the source writes (issue 40.12).
  private final long writerEpoch;

  private Connectors(
      final ConnectConfig config,
      final List<KubeCluster> clusters,
      final Enabled enabled,
      final MeterRegistry registry,
      final String instanceId,
      final boolean takeOver,
      final Heartbeats loops,
      final long writerEpoch) {
    this.writerEpoch = writerEpoch;
    this.loops = Objects.requireNonNull(loops, "loops");
    this.config = Objects.requireNonNull(config, "config");
    this.clusters = List.copyOf(clusters);
    this.enabled = Objects.requireNonNull(enabled, "enabled");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.takeOver = takeOver;
    this.topics = config.topics();
    final Map<String, Object> consumerSettings = new HashMap<>(config.kafka());
    consumerSettings.putIfAbsent(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instanceId);
    this.consumers = consumerSettings;
    this.starter = new Thread(this::startAll, "quotaflow-connectors-start");
    this.starter.setDaemon(true);
  }

  /**
   * Starts the enabled connectors on the clusters, on a thread of their own: creates the missing
   * topics first, then the executor and the writer, then the source. A step that needs Kafka is
   * tried again until it works; {@link #anyStopped()} completes when a step fails for good.
   *
   * @param clusters the clusters; the caller closes their clients
   * @param instanceId this replica's name: the static member name of the consumers
   * @param takeOver whether this replica has just become the leader: members of the executor's and
   *     the writer's groups left by earlier leaders are removed, so that their partitions come here
   *     at once instead of after their session timeout
   * @param loops where the executor's, the writer's and the source's loops beat ({@code /healthz})
   * @param writerEpoch the term's epoch, on every record the source writes (0 without leader
   *     election)
   */
  static Connectors start(
      final ConnectConfig config,
      final List<KubeCluster> clusters,
      final Enabled enabled,
      final MeterRegistry registry,
      final String instanceId,
      final boolean takeOver,
      final Heartbeats loops,
      final long writerEpoch) {
    final Connectors connectors =
        new Connectors(
            config, clusters, enabled, registry, instanceId, takeOver, loops, writerEpoch);
    connectors.starter.start();
    return connectors;
  }

  private void startAll() {
    try {
      if (retrying("Creating and checking the topics", () -> provision(config, topics)).isEmpty()) {
        return;
      }
      if (takeOver) {
        removeEarlierLeaders(config, enabled);
      }
      if (enabled.evict()) {
        final EvictionExecutor executor =
            new EvictionExecutor(
                clusters,
                topics,
                consumers,
                ConnectSettings.eviction(config),
                ConnectSettings.events(config),
                Clock.systemUTC(),
                Sleeper.SYSTEM,
                registry);
        if (!keep(executor)) {
          return;
        }
        executor.checkInputsWith(this::staleness);
        executor.watchedBy(loops, allowedSilence(Duration.ZERO));
        executor.start();
        watch("the eviction executor", executor.stopped(), executor::fenced);
      }
      if (enabled.status()) {
        final StatusWriter writer =
            new StatusWriter(
                clusters,
                topics,
                consumers,
                StatusWriterSettings.status(config),
                ConnectSettings.events(config),
                Clock.systemUTC(),
                Sleeper.SYSTEM,
                registry);
        if (!keep(writer)) {
          return;
        }
        writer.watchedBy(
            loops, allowedSilence(config.get(StatusWriterSettings.STATUS_FLUSH_INTERVAL)));
        writer.start();
        watch("the status writer", writer.stopped(), () -> false);
      }
      // The source starts last: reading its topics takes seconds, and the executor and the
      // writer are what a new leader must resume first.
      if (enabled.source()) {
        final Optional<CompletableFuture<Void>> listed =
            retrying("Reading the topics and starting the source", this::startSource);
        if (listed.isEmpty()) {
          return;
        }
        listed
            .get()
            .whenComplete(
                (done, error) -> {
                  if (error == null) {
                    LOG.info("source: every informer has listed its objects");
                  }
                });
      }
      running.complete(null);
    } catch (InterruptedException e) {
      // Closed while waiting.
    } catch (RuntimeException e) {
      if (!closed) {
        LOG.error("Starting the connectors failed", e);
        stoppedByItself.completeExceptionally(e);
      }
    }
  }

  /** A new source, its topics read and its informers started; closed again when that fails. */
  private CompletableFuture<Void> startSource() {
    final KubeSource source =
        new KubeSource(
            clusters,
            topics,
            config.kafka(),
            ConnectSettings.source(config),
            registry,
            writerEpoch);
    source.watchedBy(loops, allowedSilence(config.get(ConnectSettings.SOURCE_HEARTBEAT_INTERVAL)));
    final CompletableFuture<Void> listed;
    try {
      listed = source.start();
    } catch (RuntimeException e) {
      source.close();
      throw e;
    }
    if (!keep(source)) {
      throw new IllegalStateException("closed while the source started");
    }
    this.source = source;
    return listed;
  }

  /**
   * How long a loop that beats every {@code interval} may stay silent: {@code health.max.silence},
   * or three intervals when they are longer, so that a slow loop is not taken for a wedged one.
   */
  private Duration allowedSilence(final Duration interval) {
    final Duration most = config.get(ConnectSettings.HEALTH_MAX_SILENCE);
    final Duration three = interval.multipliedBy(3);
    return three.compareTo(most) > 0 ? three : most;
  }

  /** What the source beside the executor knows against a decision; nothing without a source. */
  private Optional<String> staleness(final String cluster, final Instant decidedAt) {
    final KubeSource watching = source;
    return watching == null ? Optional.empty() : watching.staleness(cluster, decidedAt);
  }

  private <T> Optional<T> retrying(final String step, final Supplier<T> action)
      throws InterruptedException {
    final StartupRetry attempts =
        new StartupRetry(
            step,
            config.get(ConnectSettings.STARTUP_RETRY_BACKOFF),
            config.get(ConnectSettings.STARTUP_RETRY_MAX_BACKOFF),
            wait -> !closing.await(wait.toMillis(), TimeUnit.MILLISECONDS),
            Clock.systemUTC());
    retry = attempts;
    try {
      return closed
          ? Optional.empty()
          : attempts.run(action, failure -> !closed && StartupRetry.retriable(failure));
    } finally {
      retry = null;
    }
  }

  /** Adds a started connector to those closed with these; false (and closes it) when closed. */
  private synchronized boolean keep(final AutoCloseable connector) {
    if (closed) {
      closeQuietly(connector);
      return false;
    }
    started.add(connector);
    return true;
  }

  /**
   * Completes {@link #anyStopped()} when a consumer stops by itself, unless these connectors were
   * closed or the consumer ended its term cleanly ({@code endedTerm}: fenced by a new leader).
   */
  private void watch(
      final String name, final CompletableFuture<Void> stopped, final BooleanSupplier endedTerm) {
    stopped.whenComplete(
        (done, error) -> {
          if (closed) {
            return;
          }
          if (error == null && endedTerm.getAsBoolean()) {
            LOG.warn("{} ended its term: another replica leads now", name);
            return;
          }
          stoppedByItself.complete(name);
        });
  }

  /**
   * Why the connectors are not ready: a start-up step is being retried; empty once they started (or
   * while nothing is known to be wrong).
   */
  Optional<String> problem() {
    final StartupRetry current = retry;
    return current == null
        ? Optional.empty()
        : current.problem().map(reason -> "the connectors have not started: " + reason);
  }

  /** Completes once every enabled connector has started. */
  CompletableFuture<Void> started() {
    return running;
  }

  /** Completes when a consumer (executor or writer) stops by itself: something went wrong. */
  CompletableFuture<Object> anyStopped() {
    return stoppedByItself;
  }

  /** Whether {@link #close()} was called: a consumer that stops then stops as asked. */
  boolean isClosed() {
    return closed;
  }

  /** Stops the connectors (the source flushes its producer). Idempotent. */
  @Override
  public void close() {
    final List<AutoCloseable> reverse;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      reverse = new ArrayList<>(started);
    }
    closing.countDown();
    try {
      starter.join(STARTER_JOIN.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    Collections.reverse(reverse);
    reverse.forEach(Connectors::closeQuietly);
  }

  private static void closeQuietly(final AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      LOG.warn("closing {} failed", closeable.getClass().getSimpleName(), e);
    }
  }

  /** Only the leader consumes: every member left in its groups belongs to an earlier leader. */
  private static void removeEarlierLeaders(final ConnectConfig config, final Enabled enabled) {
    if (enabled.evict()) {
      GroupMembership.removeDeparted(
          config.kafka(),
          config.get(ConnectSettings.EVICTION_GROUP_ID),
          member -> true,
          GroupMembership.ADMIN_TIMEOUT);
    }
    if (enabled.status()) {
      GroupMembership.removeDeparted(
          config.kafka(),
          config.get(StatusWriterSettings.STATUS_GROUP_ID),
          member -> true,
          GroupMembership.ADMIN_TIMEOUT);
    }
  }

  private static ProvisioningReport provision(
      final ConnectConfig config, final TopicCatalogue topics) {
    try (Admin admin = Admin.create(config.kafka())) {
      final ProvisioningReport report =
          new TopicProvisioner(admin, ADMIN_TIMEOUT)
              .provision(
                  topics.all(),
                  config.get(ConnectSettings.TOPIC_PARTITIONS),
                  config.get(ConnectSettings.TOPIC_REPLICATION_FACTOR).shortValue());
      if (!report.created().isEmpty()) {
        LOG.info("created topics {}", report.created());
      }
      report
          .mismatched()
          .forEach(
              check ->
                  LOG.warn(
                      "topic {} is not as expected and was left unchanged: {}",
                      check.topic(),
                      String.join("; ", check.differences())));
      return report;
    }
  }
}
