package io.quotaflow.connect;

import io.micrometer.core.instrument.MeterRegistry;
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
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connectors {@code quotaflow connect} runs, wired by constructor from one configuration, and
 * closed in the reverse order of their start.
 */
final class Connectors implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Connectors.class);
  private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

  /** Which connectors run. */
  record Enabled(boolean source, boolean evict, boolean status) {
    boolean any() {
      return source || evict || status;
    }
  }

  private final List<AutoCloseable> started = new ArrayList<>();
  private final List<CompletableFuture<Void>> consumers = new ArrayList<>();
  private boolean closed;

  /**
   * Creates missing topics, then starts the enabled connectors on the clusters.
   *
   * @param clusters the clusters; closed with the connectors
   */
  static Connectors start(
      final ConnectConfig config,
      final List<KubeCluster> clusters,
      final Enabled enabled,
      final MeterRegistry registry) {
    Objects.requireNonNull(config, "config");
    final Connectors connectors = new Connectors();
    clusters.forEach(cluster -> connectors.started.add(cluster.client()));
    try {
      final TopicCatalogue topics = config.topics();
      provision(config, topics);
      if (enabled.source()) {
        final KubeSource source =
            new KubeSource(
                clusters,
                topics,
                ConnectSettings.sourceKafka(config),
                ConnectSettings.source(config),
                registry);
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
      if (enabled.evict()) {
        final EvictionExecutor executor =
            new EvictionExecutor(
                clusters,
                topics,
                config.kafka(),
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
                config.kafka(),
                ConnectSettings.status(config),
                ConnectSettings.events(config),
                Clock.systemUTC(),
                Sleeper.SYSTEM,
                registry);
        connectors.started.add(writer);
        writer.start();
        connectors.consumers.add(writer.stopped());
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

  /** Stops the connectors (the source flushes its producer) and closes the clients. Idempotent. */
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
