package io.quotaflow.admission.state;

import io.quotaflow.dra.ClaimedDevices;
import io.quotaflow.dra.DeviceClassMappings;
import io.quotaflow.engine.liveness.Heartbeats;
import io.quotaflow.engine.query.RuntimeQueries;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.history.HistoryTiers;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.schemas.GroupRuntime;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * Cluster state read from the engine's interactive stores: group statuses, their own requests and
 * pods through the engine's {@link RuntimeQueries}, group specifications from its {@code
 * cluster-inputs} store, and ownership from {@code queryMetadataForKey} with the cluster as key.
 * Specifications change rarely and reading them scans a cluster's inputs, so each cluster's are
 * kept for {@code specTtl}.
 */
public final class StreamsClusterState implements ClusterStateReader {

  private final KafkaStreams streams;
  private final Optional<HostInfo> self;
  private final Clock clock;
  private final Duration specTtl;
  private final Supplier<Optional<String>> engineProblem;
  private final Optional<HistoryTiers> history;
  private final ClaimedDevices claimed;
  private final Heartbeats heartbeats;
  // The stores of the clusters held here, or (in the standby reader) their standby replicas too.
  private final StoreReads reads;
  // Reads the standby replicas kept here too (issue 40.10); null in the standby reader itself.
  private final StreamsClusterState standby;
  // Set once the stores were queryable while RUNNING: from then on a rebalance keeps it ready.
  private volatile boolean loaded;

  /**
   * @param streams the engine's running application
   * @param self this instance's {@code application.server}; empty for a single instance without one
   *     (every cluster is then held here)
   * @param specTtl how long a cluster's group specifications are reused
   * @param engineProblem why the engine cannot do its work now, beyond its Kafka Streams state
   *     (e.g. it cannot reach Kafka, so cannot commit); empty when nothing is known to be wrong
   */
  public StreamsClusterState(
      KafkaStreams streams,
      Optional<HostInfo> self,
      Clock clock,
      Duration specTtl,
      Supplier<Optional<String>> engineProblem) {
    this(streams, self, clock, specTtl, engineProblem, Optional.empty());
  }

  /**
   * @param history the tiers of the engine's history stores; empty when it keeps none
   */
  public StreamsClusterState(
      KafkaStreams streams,
      Optional<HostInfo> self,
      Clock clock,
      Duration specTtl,
      Supplier<Optional<String>> engineProblem,
      Optional<HistoryTiers> history) {
    this(streams, self, clock, specTtl, engineProblem, history, DeviceClassMappings.defaults());
  }

  /**
   * @param deviceClasses what a device of each DeviceClass counts as: the engine's {@code
   *     quota.device.classes}, so a new pod's claims are counted as the engine counts them
   */
  public StreamsClusterState(
      KafkaStreams streams,
      Optional<HostInfo> self,
      Clock clock,
      Duration specTtl,
      Supplier<Optional<String>> engineProblem,
      Optional<HistoryTiers> history,
      DeviceClassMappings deviceClasses) {
    this(
        streams,
        self,
        clock,
        specTtl,
        engineProblem,
        history,
        deviceClasses,
        new Heartbeats(clock));
  }

  /**
   * @param heartbeats the engine's loops that must keep running (its stream tasks): {@link
   *     #silentLoops()}
   */
  public StreamsClusterState(
      KafkaStreams streams,
      Optional<HostInfo> self,
      Clock clock,
      Duration specTtl,
      Supplier<Optional<String>> engineProblem,
      Optional<HistoryTiers> history,
      DeviceClassMappings deviceClasses,
      Heartbeats heartbeats) {
    this.heartbeats = Objects.requireNonNull(heartbeats, "heartbeats");
    this.claimed = new ClaimedDevices(deviceClasses);
    this.history = Objects.requireNonNull(history, "history");
    this.engineProblem = Objects.requireNonNull(engineProblem, "engineProblem");
    this.streams = Objects.requireNonNull(streams, "streams");
    this.self = Objects.requireNonNull(self, "self");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.specTtl = Objects.requireNonNull(specTtl, "specTtl");
    this.reads = new StoreReads(streams, false, clock, specTtl, claimed);
    this.standby = new StreamsClusterState(this);
  }

  /** A reader of {@code live}'s stores and the standby replicas kept beside them. */
  private StreamsClusterState(StreamsClusterState live) {
    this.heartbeats = live.heartbeats;
    this.claimed = live.claimed;
    // The history is answered by the owner only.
    this.history = Optional.empty();
    this.engineProblem = live.engineProblem;
    this.streams = live.streams;
    this.self = live.self;
    this.clock = live.clock;
    this.specTtl = live.specTtl;
    this.reads = new StoreReads(streams, true, clock, specTtl, claimed);
    this.standby = null;
  }

  /**
   * The clusters another instance holds whose standby replica this one keeps ({@code
   * num.standby.replicas}); none while the engine is not RUNNING (a standby being moved or
   * promoted), or without {@code application.server} (one instance).
   */
  @Override
  public List<String> standbyClusters() {
    if (standby == null || self.isEmpty() || streams.state() != KafkaStreams.State.RUNNING) {
      return List.of();
    }
    final List<String> kept = new ArrayList<>();
    for (final String cluster : standby.localClusters()) {
      final KeyQueryMetadata owner = RuntimeQueries.owner(streams, cluster);
      if (owner != null
          && !KeyQueryMetadata.NOT_AVAILABLE.equals(owner)
          && !owner.activeHost().equals(self.get())
          && owner.standbyHosts().contains(self.get())) {
        kept.add(cluster);
      }
    }
    return kept;
  }

  @Override
  public List<Ownership.Remote> standbyHosts(String cluster) {
    if (self.isEmpty() || streams.state() != KafkaStreams.State.RUNNING) {
      return List.of();
    }
    final KeyQueryMetadata owner = RuntimeQueries.owner(streams, cluster);
    if (owner == null || KeyQueryMetadata.NOT_AVAILABLE.equals(owner)) {
      return List.of();
    }
    final List<Ownership.Remote> hosts = new ArrayList<>();
    for (final HostInfo host : owner.standbyHosts()) {
      if (!host.equals(self.get()) && host.port() > 0) {
        hosts.add(new Ownership.Remote(host.host(), host.port()));
      }
    }
    return hosts;
  }

  /** The state of {@code cluster} in this instance's stores, its standby replicas included. */
  @Override
  public Optional<ClusterView> standbyCluster(String cluster) {
    return standby == null ? Optional.empty() : standby.cluster(cluster);
  }

  @Override
  public boolean alive() {
    final KafkaStreams.State state = streams.state();
    return state != KafkaStreams.State.ERROR
        && state != KafkaStreams.State.PENDING_ERROR
        && state != KafkaStreams.State.NOT_RUNNING
        && state != KafkaStreams.State.PENDING_SHUTDOWN;
  }

  @Override
  public List<String> silentLoops() {
    return heartbeats.silent();
  }

  /**
   * From the assignment Kafka Streams knows now, also while REBALANCING (a task restoring here is
   * assigned here though {@link #owner} says no instance holds its clusters yet).
   */
  @Override
  public boolean assignedHere(String cluster) {
    final KafkaStreams.State state = streams.state();
    if (state != KafkaStreams.State.RUNNING && state != KafkaStreams.State.REBALANCING) {
      return false;
    }
    if (self.isEmpty()) {
      return true;
    }
    final KeyQueryMetadata owner = RuntimeQueries.owner(streams, cluster);
    return owner != null
        && !KeyQueryMetadata.NOT_AVAILABLE.equals(owner)
        && owner.activeHost().equals(self.get());
  }

  @Override
  public Optional<String> notReadyReason() {
    final Readiness readiness = readiness();
    return readiness.ready() ? Optional.empty() : Optional.of(readiness.detail());
  }

  /**
   * Ready while RUNNING or REBALANCING once state was loaded (see {@link Readiness#of}), and the
   * engine knows of no problem (it can reach Kafka, so commit what it computes).
   */
  @Override
  public Readiness readiness() {
    final Optional<String> problem = engineProblem.get();
    if (problem.isPresent()) {
      return Readiness.notReady(problem.get());
    }
    final KafkaStreams.State state = streams.state();
    Optional<String> storeProblem = Optional.empty();
    if (state == KafkaStreams.State.RUNNING || state == KafkaStreams.State.REBALANCING) {
      try {
        RuntimeQueries.of(streams);
        if (state == KafkaStreams.State.RUNNING) {
          loaded = true;
        }
      } catch (InvalidStateStoreException e) {
        storeProblem = Optional.of(e.getMessage());
      }
    }
    return Readiness.of(state, loaded, storeProblem);
  }

  @Override
  public Ownership owner(String cluster) {
    final KafkaStreams.State state = streams.state();
    if (state != KafkaStreams.State.RUNNING) {
      return new Ownership.Unavailable("the engine is " + state);
    }
    if (self.isEmpty()) {
      return Ownership.local();
    }
    final KeyQueryMetadata owner = RuntimeQueries.owner(streams, cluster);
    if (owner == null || KeyQueryMetadata.NOT_AVAILABLE.equals(owner)) {
      return new Ownership.Unavailable("no instance holds the cluster now (rebalance)");
    }
    final HostInfo host = owner.activeHost();
    return host.equals(self.get())
        ? Ownership.local()
        : new Ownership.Remote(host.host(), host.port());
  }

  @Override
  public List<String> localClusters() {
    return StoreReads.read(
        () -> {
          final TreeSet<String> clusters = new TreeSet<>();
          try (KeyValueIterator<GroupId, GroupRuntime> all = reads.runtimeStore().all()) {
            while (all.hasNext()) {
              clusters.add(all.next().key.cluster());
            }
          }
          return List.copyOf(clusters);
        });
  }

  @Override
  public List<Ownership.Remote> peers() {
    final List<Ownership.Remote> peers = new ArrayList<>();
    for (final StreamsMetadata metadata : streams.metadataForAllStreamsClients()) {
      final HostInfo host = metadata.hostInfo();
      if (self.isPresent() && !host.equals(self.get()) && host.port() > 0) {
        peers.add(new Ownership.Remote(host.host(), host.port()));
      }
    }
    return peers;
  }

  @Override
  public Optional<ClusterView> cluster(String cluster) {
    return StoreReads.read(
        () -> {
          final RuntimeQueries queries = RuntimeQueries.of(streams, reads.stale());
          if (queries.group(cluster, SpecialGroups.ROOT).isEmpty()) {
            reads.forget(cluster);
            return Optional.empty();
          }
          if (!loaded && !reads.stale()) {
            loaded = true;
          }
          return Optional.of(new StoreClusterView(cluster, queries, reads, history));
        });
  }
}
