package io.quotaflow.local;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.quotaflow.cluster.ElasticQuotaProfiles;
import io.quotaflow.cluster.KubeCluster;
import io.quotaflow.engine.Engine;
import io.quotaflow.engine.query.RuntimeQueries;
import io.quotaflow.kube.ElasticQuotaProfileAdapter;
import io.quotaflow.kube.NodeAdapter;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.reservation.ReservationStatus;
import io.quotaflow.simulate.TableReport;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.TreeSnapshot;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prints each cluster's quota tree as {@code simulate}'s table whenever the engine's state of it
 * changes; a cluster with ElasticQuotaProfiles as its trees, each under a heading that names it.
 * Debounced: a tree is printed once it has stayed the same for one polling interval, so a burst of
 * updates prints its end state once rather than every step of it.
 */
final class TreePrinter implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(TreePrinter.class);
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");
  private static final Duration NODES_MAX_AGE = Duration.ofSeconds(5);

  /** Nodes and ElasticQuotaProfiles as listed at a moment. */
  private record Listed(List<QuotaNode> nodes, List<QuotaProfile> profiles, long atNanos) {}

  private final Engine engine;
  private final List<KubeCluster> clusters;
  private final QuotaOptions options;
  private final PrintWriter out;
  private final Duration interval;
  private final Map<String, String> lastSeen = new LinkedHashMap<>();
  private final Map<String, String> lastPrinted = new LinkedHashMap<>();
  private final Map<String, Listed> listings = new ConcurrentHashMap<>();
  private ScheduledExecutorService poller;

  TreePrinter(
      final Engine engine,
      final List<KubeCluster> clusters,
      final QuotaOptions options,
      final PrintWriter out,
      final Duration interval) {
    this.engine = engine;
    this.clusters = List.copyOf(clusters);
    this.options = options;
    this.out = out;
    this.interval = interval;
  }

  /** Starts polling the engine's stores. */
  synchronized TreePrinter start() {
    poller =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              final Thread thread = new Thread(runnable, "quotaflow-local-tree");
              thread.setDaemon(true);
              return thread;
            });
    poller.scheduleWithFixedDelay(this::poll, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    return this;
  }

  /** The tree of {@code cluster} as the engine holds it now; empty while it cannot be read. */
  Optional<TreeSnapshot> snapshot(final KubeCluster cluster) {
    try {
      return EngineTree.read(
          RuntimeQueries.of(engine.streams()), cluster.name(), listed(cluster).nodes(), options);
    } catch (final InvalidStateStoreException e) {
      return Optional.empty();
    }
  }

  /**
   * The table of {@code cluster}: simulate's one tree, or for a cluster with ElasticQuotaProfiles
   * each tree under a heading that names it, as simulate prints them.
   */
  private Optional<String> table(final KubeCluster cluster) {
    final RuntimeQueries queries = RuntimeQueries.of(engine.streams());
    final Map<String, ReservationStatus> reservations = queries.reservations(cluster.name());
    final Listed listed = listed(cluster);
    return snapshot(cluster)
        .map(
            whole -> {
              if (listed.profiles().isEmpty()) {
                return TableReport.render(whole, reservations);
              }
              final Map<String, String> treeOfGroup = new HashMap<>();
              whole
                  .groups()
                  .forEach(
                      group ->
                          queries
                              .treeOf(cluster.name(), group.name())
                              .ifPresent(tree -> treeOfGroup.put(group.name(), tree)));
              return TableReport.render(
                  EngineTrees.split(
                      whole,
                      treeOfGroup,
                      listed.nodes(),
                      listed.profiles(),
                      reservations,
                      options));
            });
  }

  /**
   * The cluster's nodes (for the totals) and profiles (for the trees); listed again at most every
   * {@link #NODES_MAX_AGE}, so that a real API server is not listed twice a second.
   */
  private Listed listed(final KubeCluster cluster) {
    final Listed listed = listings.get(cluster.name());
    if (listed != null && System.nanoTime() - listed.atNanos() < NODES_MAX_AGE.toNanos()) {
      return listed;
    }
    final List<QuotaNode> fresh =
        cluster.client().nodes().list().getItems().stream().map(NodeAdapter::toQuotaNode).toList();
    final Listed now = new Listed(fresh, profiles(cluster), System.nanoTime());
    listings.put(cluster.name(), now);
    return now;
  }

  /** The cluster's ElasticQuotaProfiles; none where the custom resource is not installed. */
  private static List<QuotaProfile> profiles(final KubeCluster cluster) {
    try {
      return cluster
          .client()
          .genericKubernetesResources(ElasticQuotaProfiles.CONTEXT)
          .inAnyNamespace()
          .list()
          .getItems()
          .stream()
          .map(ElasticQuotaProfileAdapter::toQuotaProfile)
          .toList();
    } catch (final KubernetesClientException e) {
      return List.of();
    }
  }

  private void poll() {
    try {
      for (final KubeCluster cluster : clusters) {
        table(cluster).ifPresent(table -> show(cluster, table));
      }
    } catch (final RuntimeException e) {
      // A cluster that cannot be listed right now is shown on the next poll.
      LOG.debug("Could not read the tree", e);
    }
  }

  private void show(final KubeCluster cluster, final String table) {
    final String previous = lastSeen.put(cluster.name(), table);
    if (table.equals(previous) && !table.equals(lastPrinted.get(cluster.name()))) {
      lastPrinted.put(cluster.name(), table);
      out.printf(
          "%n=== cluster %s at %s ===%n%s", cluster.name(), LocalTime.now().format(TIME), table);
      out.flush();
    }
  }

  @Override
  public synchronized void close() {
    if (poller != null) {
      poller.shutdownNow();
      try {
        poller.awaitTermination(2, TimeUnit.SECONDS);
      } catch (final InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
