package io.quotaflow.admission.state;

import io.fabric8.kubernetes.api.model.Pod;
import io.quotaflow.dra.ClaimedDevices;
import io.quotaflow.dra.DeviceCharge;
import io.quotaflow.dra.DeviceClassMappings;
import io.quotaflow.engine.TopologyNames;
import io.quotaflow.engine.convert.DraRecords;
import io.quotaflow.engine.convert.InputRecords;
import io.quotaflow.engine.devices.ClusterDevices;
import io.quotaflow.engine.freshness.InputFreshnessBook;
import io.quotaflow.engine.history.HistoryQueries;
import io.quotaflow.engine.liveness.Heartbeats;
import io.quotaflow.engine.query.PodInGroup;
import io.quotaflow.engine.query.RuntimeQueries;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.engine.store.InputId;
import io.quotaflow.engine.store.KeyPrefixes;
import io.quotaflow.history.HistoryStep;
import io.quotaflow.history.HistoryTiers;
import io.quotaflow.kube.PodGroupKey;
import io.quotaflow.kube.PodGroupObject;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.profile.QuotaTrees;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.reservation.ReservationStatus;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.schemas.internal.ClusterEvent;
import io.quotaflow.schemas.internal.InputFreshness;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.GroupDirectory;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Cluster state read from the engine's interactive stores: group statuses, their own requests and
 * pods through the engine's {@link RuntimeQueries}, group specifications from its {@code
 * cluster-inputs} store, and ownership from {@code queryMetadataForKey} with the cluster as key.
 * Specifications change rarely and reading them scans a cluster's inputs, so each cluster's are
 * kept for {@code specTtl}.
 */
public final class StreamsClusterState implements ClusterStateReader {

  /** One cluster's specifications, indexed by name and by parent, and its profile trees. */
  private record Specs(
      Instant readAt,
      List<QuotaGroup> quotas,
      GroupDirectory directory,
      Map<String, QuotaGroup> byName,
      Map<String, List<String>> childNames,
      Map<String, QuotaProfile> treeProfiles) {

    static Specs of(Instant readAt, List<QuotaGroup> quotas, List<QuotaProfile> profiles) {
      final Map<String, QuotaGroup> byName = new HashMap<>();
      final Map<String, List<String>> childNames = new HashMap<>();
      for (final QuotaGroup quota : quotas) {
        byName.put(quota.name(), quota);
        final String parent = quota.parent().isEmpty() ? SpecialGroups.ROOT : quota.parent();
        childNames.computeIfAbsent(parent, p -> new ArrayList<>()).add(quota.name());
      }
      final Map<String, List<String>> children = new HashMap<>();
      childNames.forEach((parent, names) -> children.put(parent, List.copyOf(names)));
      return new Specs(
          readAt,
          List.copyOf(quotas),
          GroupDirectory.of(quotas),
          Map.copyOf(byName),
          Map.copyOf(children),
          QuotaTrees.acceptedTrees(profiles));
    }
  }

  private final KafkaStreams streams;
  private final Optional<HostInfo> self;
  private final Clock clock;
  private final Duration specTtl;
  private final Supplier<Optional<String>> engineProblem;
  private final Optional<HistoryTiers> history;
  private final ClaimedDevices claimed;
  private final Heartbeats heartbeats;
  private final Map<String, Specs> specs = new ConcurrentHashMap<>();
  // Reads the standby replicas kept here too (issue 40.10); null in the standby reader itself.
  private final boolean stale;
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
    this.stale = false;
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
    this.stale = true;
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
    return read(
        () -> {
          final TreeSet<String> clusters = new TreeSet<>();
          try (KeyValueIterator<GroupId, GroupRuntime> all = runtimeStore().all()) {
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
    return read(
        () -> {
          final RuntimeQueries queries = RuntimeQueries.of(streams, stale);
          if (queries.group(cluster, SpecialGroups.ROOT).isEmpty()) {
            specs.remove(cluster);
            return Optional.empty();
          }
          if (!loaded && !stale) {
            loaded = true;
          }
          return Optional.of(new StoreView(cluster, queries));
        });
  }

  private ReadOnlyKeyValueStore<GroupId, GroupRuntime> runtimeStore() {
    return streams.store(
        RuntimeQueries.parameters(
            StoreQueryParameters.fromNameAndType(
                TopologyNames.RUNTIME_STORE,
                QueryableStoreTypes.<GroupId, GroupRuntime>keyValueStore()),
            stale));
  }

  private Specs specs(String cluster) {
    final Instant now = clock.instant();
    final Specs cached = specs.get(cluster);
    if (cached != null && cached.readAt().plus(specTtl).isAfter(now)) {
      return cached;
    }
    final ReadOnlyKeyValueStore<InputId, ClusterEvent> inputs = inputStore();
    final List<QuotaGroup> quotas = new ArrayList<>();
    final List<QuotaProfile> profiles = new ArrayList<>();
    try (KeyValueIterator<InputId, ClusterEvent> scan =
        inputs.prefixScan(cluster, KeyPrefixes.cluster())) {
      while (scan.hasNext()) {
        final KeyValue<InputId, ClusterEvent> entry = scan.next();
        if (entry.key.kind() == InputId.InputKind.QUOTA
            && entry.value != null
            && entry.value.getValue().orElse(null) instanceof QuotaSpec spec) {
          quotas.add(InputRecords.group(entry.key.name(), spec));
        } else if (entry.key.kind() == InputId.InputKind.PROFILE && entry.value != null) {
          // A profile travels beside the value field of its event.
          entry
              .value
              .getProfile()
              .ifPresent(spec -> profiles.add(InputRecords.profile(entry.key.name(), spec)));
        }
      }
    }
    final Specs fresh = Specs.of(now, quotas, profiles);
    specs.put(cluster, fresh);
    return fresh;
  }

  /**
   * The DRA objects of {@code cluster} in the cluster-inputs store: a prefix scan per DRA kind,
   * read only for pods that name claims.
   */
  private ClusterDevices devices(String cluster) {
    final ClusterDevices devices = new ClusterDevices(claimed);
    final ReadOnlyKeyValueStore<InputId, ClusterEvent> inputs = inputStore();
    for (final InputId.InputKind kind : InputId.InputKind.values()) {
      if (!ClusterDevices.isDra(kind)) {
        continue;
      }
      try (KeyValueIterator<InputId, ClusterEvent> scan =
          inputs.prefixScan(new InputId(cluster, kind, "", ""), KeyPrefixes.inputsOf())) {
        while (scan.hasNext()) {
          final KeyValue<InputId, ClusterEvent> entry = scan.next();
          final Object value = entry.value == null ? null : entry.value.getDra().orElse(null);
          if (value != null) {
            devices.put(entry.key, value);
          }
        }
      }
    }
    return devices;
  }

  private ReadOnlyKeyValueStore<InputId, ClusterEvent> inputStore() {
    return streams.store(
        RuntimeQueries.parameters(
            StoreQueryParameters.fromNameAndType(
                TopologyNames.CLUSTER_INPUTS_STORE,
                QueryableStoreTypes.<InputId, ClusterEvent>keyValueStore()),
            stale));
  }

  private static <T> T read(Supplier<T> action) {
    try {
      return action.get();
    } catch (InvalidStateStoreException e) {
      throw new StateUnavailableException("the stores are not queryable: " + e.getMessage(), e);
    }
  }

  /** One cluster's state over the stores; every call reads them anew. */
  private final class StoreView implements ClusterView {
    private final String cluster;
    private final RuntimeQueries queries;

    StoreView(String cluster, RuntimeQueries queries) {
      this.cluster = cluster;
      this.queries = queries;
    }

    @Override
    public Optional<GroupStatus> group(String name) {
      return read(() -> queries.group(cluster, name));
    }

    @Override
    public List<GroupStatus> groups() {
      return read(() -> queries.tree(cluster));
    }

    /** Exact: the engine writes each group's own request on its runtime record. */
    @Override
    public Optional<ResourceList> ownRequest(String group) {
      return read(() -> queries.ownRequest(cluster, group));
    }

    @Override
    public List<QuotaGroup> quotas() {
      return read(() -> specs(cluster).quotas());
    }

    @Override
    public GroupDirectory directory() {
      return read(() -> specs(cluster).directory());
    }

    @Override
    public Optional<QuotaGroup> quota(String name) {
      return read(() -> Optional.ofNullable(specs(cluster).byName().get(name)));
    }

    /**
     * The children named by the (cached) specifications, each status looked up by name: one store
     * read per sibling instead of a scan of the cluster's tree. A group created less than {@code
     * specTtl} ago may be missing until the specifications are read again.
     */
    @Override
    public List<GroupStatus> children(String parent) {
      return read(
          () -> {
            final List<GroupStatus> children = new ArrayList<>();
            for (final String name : specs(cluster).childNames().getOrDefault(parent, List.of())) {
              queries.group(cluster, name).ifPresent(children::add);
            }
            return children;
          });
    }

    /** One read of the group's runtime record, which carries its tree. */
    @Override
    public String treeOf(String group) {
      return read(() -> queries.treeOf(cluster, group).orElse(QuotaTrees.DEFAULT_TREE));
    }

    /** From the (cached) profiles: a profile changed less than {@code specTtl} ago may lag. */
    @Override
    public Map<String, QuotaProfile> treeProfiles() {
      return read(() -> specs(cluster).treeProfiles());
    }

    /** One read of the node's input record. */
    @Override
    public Optional<Map<String, String>> nodeLabels(String name) {
      return read(
          () -> {
            final ClusterEvent event =
                inputStore().get(new InputId(cluster, InputId.InputKind.NODE, "", name));
            return event != null && event.getValue().orElse(null) instanceof NodeState state
                ? Optional.of(Map.copyOf(state.getLabels()))
                : Optional.empty();
          });
    }

    /** One read of the PodGroup's input record. */
    @Override
    public Optional<PodGroupObject> podGroup(PodGroupKey key) {
      return read(
          () -> {
            final ClusterEvent event =
                inputStore()
                    .get(InputId.podGroup(cluster, key.convention(), key.namespace(), key.name()));
            return event == null
                ? Optional.empty()
                : event
                    .getPodGroup()
                    .map(
                        spec ->
                            InputRecords.podGroup(
                                key.convention(), key.namespace(), key.name(), spec));
          });
    }

    /** One prefix scan of the engine's reservations store, which holds reserving groups only. */
    @Override
    public Map<String, ReservationStatus> reservations() {
      return read(() -> queries.reservations(cluster));
    }

    /** One prefix scan of the engine's reclaim clock (store {@code over-used-since}). */
    @Override
    public Map<String, Instant> overUsedSince() {
      return read(
          () -> {
            final ReadOnlyKeyValueStore<GroupId, Long> store =
                streams.store(
                    RuntimeQueries.parameters(
                        StoreQueryParameters.fromNameAndType(
                            TopologyNames.OVER_USED_SINCE_STORE,
                            QueryableStoreTypes.<GroupId, Long>keyValueStore()),
                        stale));
            final Map<String, Instant> since = new HashMap<>();
            try (KeyValueIterator<GroupId, Long> scan =
                store.prefixScan(cluster, KeyPrefixes.cluster())) {
              scan.forEachRemaining(
                  entry -> since.put(entry.key.name(), Instant.ofEpochMilli(entry.value)));
            }
            return Map.copyOf(since);
          });
    }

    /** One prefix scan of the engine's store {@code input-freshness}. */
    @Override
    public Optional<Instant> inputsAsOf() {
      return read(
          () -> {
            final ReadOnlyKeyValueStore<InputId, InputFreshness> store =
                streams.store(
                    RuntimeQueries.parameters(
                        StoreQueryParameters.fromNameAndType(
                            TopologyNames.INPUT_FRESHNESS_STORE,
                            QueryableStoreTypes.<InputId, InputFreshness>keyValueStore()),
                        stale));
            Instant oldest = null;
            try (KeyValueIterator<InputId, InputFreshness> scan =
                store.prefixScan(cluster, KeyPrefixes.cluster())) {
              while (scan.hasNext()) {
                final KeyValue<InputId, InputFreshness> entry = scan.next();
                if (!InputFreshnessBook.judgesTrust(entry.key.kind())) {
                  continue;
                }
                final Instant at = entry.value.getHeartbeatAt();
                oldest = oldest == null || at.isBefore(oldest) ? at : oldest;
              }
            }
            return Optional.ofNullable(oldest);
          });
    }

    @Override
    public DeviceCharge claims(Pod pod) {
      if (pod.getSpec() == null
          || pod.getSpec().getResourceClaims() == null
          || pod.getSpec().getResourceClaims().isEmpty()) {
        return DeviceCharge.NONE;
      }
      return read(() -> claimed.charge(pod, devices(cluster).objects()));
    }

    /** The pod's input record, with its claims' devices as the engine charges them. */
    @Override
    public Optional<QuotaPod> podInput(PodRef ref) {
      return read(
          () -> {
            final ClusterEvent event =
                inputStore()
                    .get(new InputId(cluster, InputId.InputKind.POD, ref.namespace(), ref.name()));
            if (!(event != null && event.getValue().orElse(null) instanceof PodState state)) {
              return Optional.empty();
            }
            return Optional.of(
                DraRecords.hasClaims(state)
                    ? devices(cluster).pod(ref.namespace(), ref.name(), state)
                    : InputRecords.pod(ref.namespace(), ref.name(), state));
          });
    }

    /** One prefix scan of the cluster's inputs, converted as the engine converts them. */
    @Override
    public Optional<ClusterInputs> inputs() {
      return read(
          () -> {
            final StoredInputs stored = new StoredInputs(claimed);
            try (KeyValueIterator<InputId, ClusterEvent> scan =
                inputStore().prefixScan(cluster, KeyPrefixes.cluster())) {
              while (scan.hasNext()) {
                final KeyValue<InputId, ClusterEvent> entry = scan.next();
                if (entry.value == null) {
                  continue;
                }
                stored.add(
                    entry.key,
                    ClusterDevices.isDra(entry.key.kind())
                        ? entry.value.getDra().orElse(null)
                        : entry.value.getValue().orElse(null));
              }
            }
            return Optional.of(stored.inputs());
          });
    }

    @Override
    public HistoryAccess history() {
      if (history.isEmpty()) {
        return ClusterView.super.history();
      }
      final HistoryQueries queries = read(() -> HistoryQueries.of(streams, history.get()));
      return new HistoryAccess.Kept(
          new TieredHistories(history.get()) {
            @Override
            public List<HistoryStep> steps(
                String group, Instant from, Instant to, Duration step, Instant now) {
              return read(() -> queries.steps(cluster, group, from, to, step, now));
            }

            @Override
            public boolean keepsAny(String group, Instant now) {
              return read(() -> queries.keepsAny(cluster, group, now));
            }

            @Override
            public Map<String, HistoryStep> totals(
                java.util.Collection<String> groups, Instant from, Instant to, Instant now) {
              return read(() -> queries.totals(cluster, groups, from, to, now));
            }
          });
    }

    @Override
    public List<PodAssignment> podsOf(String group) {
      return read(
          () -> {
            final List<PodAssignment> pods = new ArrayList<>();
            for (final PodInGroup pod : queries.podsOf(cluster, group)) {
              pods.add(new PodAssignment(pod.ref(), group, pod.podClass(), Optional.empty()));
            }
            return pods;
          });
    }

    @Override
    public Optional<PodAssignment> pod(String group, PodRef ref) {
      return podsOf(group).stream().filter(pod -> pod.ref().equals(ref)).findFirst();
    }
  }
}
