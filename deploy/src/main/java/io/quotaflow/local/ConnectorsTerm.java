package io.quotaflow.local;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.cluster.GroupMembership;
import io.quotaflow.cluster.KubeCluster;
import io.quotaflow.cluster.Sleeper;
import io.quotaflow.evict.EvictionExecutor;
import io.quotaflow.evict.EvictionSettings;
import io.quotaflow.source.KubeSource;
import io.quotaflow.status.StatusSettings;
import io.quotaflow.status.StatusWriter;
import io.quotaflow.topics.TopicCatalogue;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The eviction executor and the status writer (this one only where quotaflow writes) of one term as
 * leader of {@code quotaflow local}; a new term first removes the members an earlier one left in
 * their groups. {@link #end()} closes them in reverse order.
 */
final class ConnectorsTerm {

  private static final Logger LOG = LoggerFactory.getLogger(ConnectorsTerm.class);
  private static final String EVICTION_GROUP = LocalRun.APPLICATION_ID + "-evictions";
  private static final String STATUS_GROUP = LocalRun.APPLICATION_ID + "-status";

  private final List<KubeCluster> clusters;
  private final TopicCatalogue topics;
  private final Map<String, Object> kafka;
  private final boolean writes;
  private final PrometheusMeterRegistry registry;
  private final KubeSource source;
  private final List<AutoCloseable> running = new ArrayList<>();
  private boolean ended;

  ConnectorsTerm(
      final List<KubeCluster> clusters,
      final TopicCatalogue topics,
      final Map<String, Object> kafka,
      final boolean writes,
      final PrometheusMeterRegistry registry,
      final KubeSource source) {
    this.clusters = clusters;
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
