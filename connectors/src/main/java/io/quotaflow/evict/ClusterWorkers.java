package io.quotaflow.evict;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.cluster.KubeClients;
import io.quotaflow.cluster.KubeCluster;
import io.quotaflow.cluster.Sleeper;
import io.quotaflow.cluster.TokenBucket;
import io.quotaflow.events.EventRecorder;
import io.quotaflow.events.EventSettings;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link EvictionExecutor}'s {@link ClusterWorker} per cluster (issue 40), each with a client
 * of its own that never retries by itself, its own rate limit and its own Events, so that a slow
 * cluster holds up no other. Closes the workers, then the clients it built.
 */
final class ClusterWorkers implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterWorkers.class);

  private final Map<String, ClusterWorker> workers = new LinkedHashMap<>();
  private final List<KubernetesClient> ownClients = new ArrayList<>();

  /**
   * @param current whether a job is still to be carried out when its worker reaches it
   * @param done where the workers hand their verdicts
   */
  ClusterWorkers(
      final List<KubeCluster> clusters,
      final EvictionSettings settings,
      final EventSettings events,
      final Clock clock,
      final Sleeper sleeper,
      final MeterRegistry registry,
      final Predicate<ClusterWorker.Job> current,
      final Consumer<ClusterWorker.Done> done) {
    for (final KubeCluster cluster : clusters) {
      final KubernetesClient client = KubeClients.withoutRetries(cluster.client());
      ownClients.add(client);
      final TokenBucket bucket =
          new TokenBucket(settings.requestsPerSecond(), settings.burst(), clock, sleeper);
      final ReclaimEvents reclaimEvents =
          new ReclaimEvents(
              client,
              new EventRecorder(
                  cluster.name(), client, EvictionExecutor.CONTROLLER, events, clock, registry),
              settings.dryRun(),
              clock);
      final PodEvictor evictor =
          new PodEvictor(cluster.name(), client, bucket, settings, sleeper, reclaimEvents);
      if (workers.put(cluster.name(), new ClusterWorker(cluster.name(), evictor, current, done))
          != null) {
        throw new IllegalArgumentException("Cluster names must be unique: " + clusters);
      }
    }
  }

  /** The names of the clusters served, in the order given. */
  Set<String> clusters() {
    return workers.keySet();
  }

  /** The worker of a cluster, if this executor serves it. */
  Optional<ClusterWorker> of(final String cluster) {
    return Optional.ofNullable(workers.get(cluster));
  }

  void start() {
    workers.values().forEach(ClusterWorker::start);
  }

  @Override
  public void close() {
    workers.values().forEach(ClusterWorker::close);
    for (final KubernetesClient client : ownClients) {
      try {
        client.close();
      } catch (RuntimeException e) {
        LOG.warn("closing {} failed: {}", client, e.toString());
      }
    }
  }
}
