package io.quotaflow.connect;

import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.cluster.GroupMembership;
import io.quotaflow.cluster.KubeCluster;
import io.quotaflow.cluster.Sleeper;
import io.quotaflow.evict.EvictionExecutor;
import io.quotaflow.source.KubeSource;
import io.quotaflow.status.StatusWriter;
import io.quotaflow.topics.ProvisioningReport;
import io.quotaflow.topics.TopicCatalogue;
import io.quotaflow.topics.TopicProvisioner;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connectors {@code quotaflow connect} runs, wired by constructor from one configuration, and
 * closed in the reverse order of their start.
 */
final class Connectors implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Connectors.class);
  private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(10);

  /** Which connectors run. */
  record Enabled(boolean source, boolean evict, boolean status) {
    boolean any() {
      return source || evict || status;
    }
  }

  private final List<AutoCloseable> started = new ArrayList<>();
  private final List<CompletableFuture<Void>> consumers = new ArrayList<>();
  private volatile boolean closed;

  /**
   * Creates missing topics, then starts the enabled connectors on the clusters.
   *
   * @param clusters the clusters; the caller closes their clients
   * @param instanceId this replica's name: the static member name of the consumers
   * @param takeOver whether this replica has just become the leader: members of the executor's and
   *     the writer's groups left by earlier leaders are removed, so that their partitions come here
   *     at once instead of after their session timeout
   */
  static Connectors start(
      final ConnectConfig config,
      final List<KubeCluster> clusters,
      final Enabled enabled,
      final MeterRegistry registry,
      final String instanceId,
      final boolean takeOver) {
    Objects.requireNonNull(config, "config");
    final Connectors connectors = new Connectors();
    final Map<String, Object> consumers = new HashMap<>(config.kafka());
    consumers.putIfAbsent(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instanceId);
    try {
      final TopicCatalogue topics = config.topics();
      provision(config, topics);
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
        connectors.started.add(executor);
        executor.start();
        connectors.consumers.add(executor.stopped());
      }
      if (enabled.status()) {
        final StatusWriter writer =
            new StatusWriter(
                clusters,
                topics,
                consumers,
                ConnectSettings.status(config),
                ConnectSettings.events(config),
                Clock.systemUTC(),
                Sleeper.SYSTEM,
                registry);
        connectors.started.add(writer);
        writer.start();
        connectors.consumers.add(writer.stopped());
      }
      // The source starts last: reading its topics takes seconds, and the executor and the
      // writer are what a new leader must resume first.
      if (enabled.source()) {
        final KubeSource source =
            new KubeSource(
                clusters, topics, config.kafka(), ConnectSettings.source(config), registry);
        connectors.started.add(source);
        source
            .start()
            .whenComplete(
                (done, error) -> {
                  if (error == null) {
                    LOG.info("source: every informer has listed its objects");
                  }
                });
      }
      return connectors;
    } catch (RuntimeException e) {
      connectors.close();
      throw e;
    }
  }

  /** Completes when a consumer (executor or writer) stops by itself: something went wrong. */
  CompletableFuture<Object> anyStopped() {
    if (consumers.isEmpty()) {
      return new CompletableFuture<>();
    }
    return CompletableFuture.anyOf(consumers.toArray(CompletableFuture[]::new));
  }

  /** Whether {@link #close()} was called: a consumer that stops then stops as asked. */
  boolean isClosed() {
    return closed;
  }

  /** Stops the connectors (the source flushes its producer). Idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    final List<AutoCloseable> reverse = new ArrayList<>(started);
    Collections.reverse(reverse);
    for (final AutoCloseable closeable : reverse) {
      try {
        closeable.close();
      } catch (Exception e) {
        LOG.warn("closing {} failed", closeable.getClass().getSimpleName(), e);
      }
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
          config.get(ConnectSettings.STATUS_GROUP_ID),
          member -> true,
          GroupMembership.ADMIN_TIMEOUT);
    }
  }

  private static void provision(final ConnectConfig config, final TopicCatalogue topics) {
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
    }
  }
}
