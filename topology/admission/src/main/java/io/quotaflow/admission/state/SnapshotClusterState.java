package io.quotaflow.admission.state;

import io.fabric8.kubernetes.api.model.Pod;
import io.quotaflow.dra.ClaimedDevices;
import io.quotaflow.dra.DeviceCharge;
import io.quotaflow.dra.DeviceClassMappings;
import io.quotaflow.dra.DraObjects;
import io.quotaflow.engine.liveness.Heartbeats;
import io.quotaflow.kube.PodGroupKey;
import io.quotaflow.kube.PodGroupObject;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.profile.QuotaTrees;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.reservation.LockedNodes;
import io.quotaflow.reservation.ReservationCalculator;
import io.quotaflow.reservation.ReservationStatus;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.GroupDirectory;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.TreeSnapshot;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Cluster state computed by the quota core from inputs given directly: the admission plugin without
 * Kafka, for tests, benchmarks and tools. A cluster can be declared owned by another instance or
 * unavailable, to exercise forwarding and the failure policy. Thread-safe; each cluster's state is
 * replaced atomically.
 */
public final class SnapshotClusterState implements ClusterStateReader {

  private final Map<String, SnapshotView> local = new ConcurrentHashMap<>();
  private final Map<String, Ownership> elsewhere = new ConcurrentHashMap<>();
  private final Set<String> restoringHere = ConcurrentHashMap.newKeySet();
  private final Map<String, SnapshotView> standbys = new ConcurrentHashMap<>();
  private final Map<String, List<Ownership.Remote>> standbyHosts = new ConcurrentHashMap<>();
  private volatile Heartbeats heartbeats;
  private final AtomicReference<Optional<String>> notReady =
      new AtomicReference<>(Optional.empty());
  private volatile boolean alive = true;
  private volatile Optional<String> unlistable = Optional.empty();

  /** Computes {@code inputs} and makes the result the state of {@code cluster}, held here. */
  public SnapshotClusterState put(String cluster, ClusterInputs inputs, QuotaOptions options) {
    return put(cluster, inputs, List.of(), options);
  }

  /**
   * Computes {@code inputs} with the quota trees of {@code profiles} (docs/semantics.md section
   * 15), each tree on its own as the engine does, and makes the result the state of {@code
   * cluster}.
   */
  public SnapshotClusterState put(
      String cluster, ClusterInputs inputs, List<QuotaProfile> profiles, QuotaOptions options) {
    final QuotaTrees trees = QuotaTrees.of(inputs, profiles, options);
    final List<GroupStatus> groups = new ArrayList<>();
    final List<PodAssignment> pods = new ArrayList<>();
    final Map<String, ResourceList> own = new HashMap<>();
    final Map<String, String> treeOf = new HashMap<>();
    TreeSnapshot defaultTree = null;
    for (final String tree : trees.trees()) {
      final ClusterInputs treeInputs = profiles.isEmpty() ? inputs : trees.inputs(tree);
      final ClusterQuotaState computed =
          ClusterQuotaState.restore(
              options, treeInputs, new TreeSnapshot(ResourceList.empty(), List.of(), List.of()));
      computed.recompute();
      final TreeSnapshot snapshot = computed.snapshot();
      if (QuotaTrees.DEFAULT_TREE.equals(tree)) {
        defaultTree = snapshot;
      }
      for (final GroupStatus status : snapshot.groups()) {
        if (QuotaTrees.reports(tree, status.name())) {
          groups.add(status);
          treeOf.put(status.name(), tree);
          computed.ownRequest(status.name()).ifPresent(request -> own.put(status.name(), request));
        }
      }
      pods.addAll(snapshot.pods());
    }
    final TreeSnapshot snapshot = new TreeSnapshot(defaultTree.total(), groups, pods);
    local.put(
        cluster,
        new SnapshotView(
            snapshot,
            inputs,
            options,
            own,
            // Node reservations are planned over the default tree only (section 15).
            ReservationCalculator.compute(
                profiles.isEmpty() ? inputs : trees.inputs(QuotaTrees.DEFAULT_TREE),
                defaultTree,
                options),
            treeOf,
            QuotaTrees.acceptedTrees(profiles)));
    elsewhere.remove(cluster);
    return this;
  }

  /**
   * Sets since when groups of {@code cluster} (held here) have been over-used, as the engine's
   * reclaim clock would say.
   */
  public SnapshotClusterState overUsedSince(String cluster, Map<String, Instant> since) {
    final SnapshotView view = local.get(cluster);
    if (view == null) {
      throw new IllegalArgumentException("cluster " + cluster + " is not held here");
    }
    view.overUsedSince = Map.copyOf(since);
    return this;
  }

  /**
   * Gives {@code cluster} (held here) these PodGroups, as the engine would have read them from
   * podgroups.v1; replaces those given before.
   */
  public SnapshotClusterState podGroups(String cluster, List<PodGroupObject> podGroups) {
    final SnapshotView view = local.get(cluster);
    if (view == null) {
      throw new IllegalArgumentException("cluster " + cluster + " is not held here");
    }
    final Map<PodGroupKey, PodGroupObject> byKey = new HashMap<>();
    podGroups.forEach(podGroup -> byKey.put(PodGroupKey.of(podGroup), podGroup));
    view.podGroups = Map.copyOf(byKey);
    return this;
  }

  /**
   * Gives {@code cluster} (held here) DRA objects: a new pod's claims are charged from them as
   * {@code deviceClasses} says (its existing pods are charged as {@code inputs} gave them).
   */
  public SnapshotClusterState dra(
      String cluster, DraObjects objects, DeviceClassMappings deviceClasses) {
    final SnapshotView view = local.get(cluster);
    if (view == null) {
      throw new IllegalArgumentException("cluster " + cluster + " is not held here");
    }
    view.dra = objects;
    view.claimed = new ClaimedDevices(deviceClasses);
    return this;
  }

  /** Gives {@code cluster} (held here) the history {@code histories} keeps. */
  public SnapshotClusterState history(String cluster, GroupHistories histories) {
    final SnapshotView view = local.get(cluster);
    if (view == null) {
      throw new IllegalArgumentException("cluster " + cluster + " is not held here");
    }
    view.history = new HistoryAccess.Kept(histories);
    return this;
  }

  /** Declares {@code cluster} held by the instance at {@code host:port}. */
  public SnapshotClusterState remote(String cluster, String host, int port) {
    local.remove(cluster);
    elsewhere.put(cluster, new Ownership.Remote(host, port));
    return this;
  }

  /**
   * Keeps the state of {@code cluster} put here as a standby copy too, whose newest connectors'
   * heartbeat is {@code heartbeatAt} (issue 40.10); declare the cluster held elsewhere next.
   */
  public SnapshotClusterState standby(String cluster, Instant heartbeatAt) {
    final SnapshotView view = local.get(cluster);
    if (view == null) {
      throw new IllegalStateException("put " + cluster + " first");
    }
    view.heartbeatAt = Objects.requireNonNull(heartbeatAt, "heartbeatAt");
    standbys.put(cluster, view);
    return this;
  }

  /** Declares that the instance at {@code host:port} keeps a standby replica of {@code cluster}. */
  public SnapshotClusterState standbyHost(String cluster, String host, int port) {
    standbyHosts.put(cluster, List.of(new Ownership.Remote(host, port)));
    return this;
  }

  @Override
  public List<Ownership.Remote> standbyHosts(String cluster) {
    return standbyHosts.getOrDefault(cluster, List.of());
  }

  @Override
  public List<String> standbyClusters() {
    return standbys.keySet().stream()
        .filter(cluster -> !(owner(cluster) instanceof Ownership.Local))
        .sorted()
        .toList();
  }

  @Override
  public Optional<ClusterView> standbyCluster(String cluster) {
    return Optional.ofNullable(standbys.get(cluster));
  }

  /** Declares {@code cluster} unavailable (as during a rebalance). */
  public SnapshotClusterState unavailable(String cluster, String reason) {
    elsewhere.put(cluster, new Ownership.Unavailable(reason));
    return this;
  }

  /**
   * Makes the stores unreadable as a whole (as while a stream thread is between assignment and
   * running): listing the clusters held here fails with {@code reason}.
   */
  public SnapshotClusterState unlistable(String reason) {
    unlistable = Optional.of(reason);
    return this;
  }

  /**
   * Declares {@code cluster} assigned here but its task restoring: its state cannot be read, with
   * {@code reason}, and no instance serves it yet.
   */
  public SnapshotClusterState restoring(String cluster, String reason) {
    restoringHere.add(cluster);
    return unavailable(cluster, reason);
  }

  /** Reads which loops are silent from {@code loops} ({@code /healthz}). */
  public SnapshotClusterState heartbeats(Heartbeats loops) {
    heartbeats = Objects.requireNonNull(loops, "loops");
    return this;
  }

  @Override
  public List<String> silentLoops() {
    final Heartbeats loops = heartbeats;
    return loops == null ? List.of() : loops.silent();
  }

  @Override
  public boolean assignedHere(String cluster) {
    return restoringHere.contains(cluster) || ClusterStateReader.super.assignedHere(cluster);
  }

  /** Makes {@code cluster} available again after {@link #unavailable}. */
  public SnapshotClusterState available(String cluster) {
    if (elsewhere.get(cluster) instanceof Ownership.Unavailable) {
      elsewhere.remove(cluster);
    }
    restoringHere.remove(cluster);
    return this;
  }

  /** Sets the readiness: empty for ready, else the reason it is not. */
  public SnapshotClusterState notReady(Optional<String> reason) {
    notReady.set(Objects.requireNonNull(reason, "reason"));
    return this;
  }

  /** Sets the liveness. */
  public SnapshotClusterState alive(boolean value) {
    alive = value;
    return this;
  }

  /** The computed snapshot of a cluster held here. */
  public Optional<TreeSnapshot> snapshot(String cluster) {
    return Optional.ofNullable(local.get(cluster)).map(SnapshotView::snapshot);
  }

  /** The inputs a cluster held here was computed from. */
  public Optional<ClusterInputs> inputs(String cluster) {
    return Optional.ofNullable(local.get(cluster)).map(view -> view.inputs);
  }

  /** The options a cluster held here was computed with. */
  public Optional<QuotaOptions> options(String cluster) {
    return Optional.ofNullable(local.get(cluster)).map(view -> view.options);
  }

  @Override
  public boolean alive() {
    return alive;
  }

  @Override
  public Optional<String> notReadyReason() {
    return notReady.get();
  }

  @Override
  public Ownership owner(String cluster) {
    final Ownership other = elsewhere.get(cluster);
    return other == null ? Ownership.local() : other;
  }

  @Override
  public List<String> localClusters() {
    if (unlistable.isPresent()) {
      throw new StateUnavailableException(unlistable.get());
    }
    return local.keySet().stream().sorted().toList();
  }

  @Override
  public List<Ownership.Remote> peers() {
    return elsewhere.values().stream()
        .filter(Ownership.Remote.class::isInstance)
        .map(Ownership.Remote.class::cast)
        .distinct()
        .toList();
  }

  @Override
  public Optional<ClusterView> cluster(String cluster) {
    if (elsewhere.get(cluster) instanceof Ownership.Unavailable unavailable) {
      throw new StateUnavailableException(unavailable.reason());
    }
    return Optional.ofNullable(local.get(cluster));
  }

  /** One computed snapshot, indexed once. */
  private static final class SnapshotView implements ClusterView {
    private final TreeSnapshot snapshot;
    private final ClusterInputs inputs;
    private final QuotaOptions options;
    private final List<QuotaGroup> quotas;
    private final GroupDirectory directory;
    private final Map<String, GroupStatus> byName = new HashMap<>();
    private final Map<String, List<GroupStatus>> byParent = new HashMap<>();
    private final Map<String, QuotaGroup> quotaByName = new HashMap<>();
    private final Map<String, ResourceList> ownRequests;
    private final Map<String, List<PodAssignment>> podsByGroup = new HashMap<>();
    private final Map<PodRef, QuotaPod> podInputs = new HashMap<>();
    private volatile Map<String, Instant> overUsedSince = Map.of();
    private volatile HistoryAccess history;
    private volatile Map<PodGroupKey, PodGroupObject> podGroups = Map.of();
    private volatile DraObjects dra = DraObjects.empty();
    private volatile ClaimedDevices claimed = new ClaimedDevices(DeviceClassMappings.defaults());
    private final Map<String, ReservationStatus> reservations;
    private final LockedNodes lockedNodes;
    private final Map<String, String> treeOf;
    private final Map<String, QuotaProfile> treeProfiles;
    private final Map<String, Map<String, String>> nodeLabels = new HashMap<>();
    // The newest heartbeat of a standby copy (standby); none otherwise.
    private volatile Instant heartbeatAt;

    SnapshotView(
        TreeSnapshot snapshot,
        ClusterInputs inputs,
        QuotaOptions options,
        Map<String, ResourceList> ownRequests,
        Map<String, ReservationStatus> reservations,
        Map<String, String> treeOf,
        Map<String, QuotaProfile> treeProfiles) {
      this.treeOf = Map.copyOf(treeOf);
      this.treeProfiles = Map.copyOf(treeProfiles);
      inputs.nodes().forEach(node -> nodeLabels.put(node.name(), node.labels()));
      this.reservations = Map.copyOf(reservations);
      this.lockedNodes = LockedNodes.of(this.reservations);
      final List<QuotaGroup> quotas = inputs.groups();
      this.snapshot = snapshot;
      this.inputs = inputs;
      this.options = options;
      this.quotas = List.copyOf(quotas);
      this.directory = GroupDirectory.of(quotas);
      this.ownRequests = Map.copyOf(ownRequests);
      quotas.forEach(quota -> quotaByName.put(quota.name(), quota));
      for (final GroupStatus status : snapshot.groups()) {
        byName.put(status.name(), status);
        byParent.computeIfAbsent(status.parent(), p -> new ArrayList<>()).add(status);
      }
      for (final PodAssignment pod : snapshot.pods()) {
        podsByGroup.computeIfAbsent(pod.group(), g -> new ArrayList<>()).add(pod);
      }
      inputs.pods().forEach(pod -> podInputs.put(pod.ref(), pod));
    }

    TreeSnapshot snapshot() {
      return snapshot;
    }

    @Override
    public Optional<Instant> inputsAsOf() {
      return Optional.ofNullable(heartbeatAt);
    }

    @Override
    public Optional<GroupStatus> group(String name) {
      return Optional.ofNullable(byName.get(name));
    }

    @Override
    public List<GroupStatus> groups() {
      return snapshot.groups();
    }

    @Override
    public List<QuotaGroup> quotas() {
      return quotas;
    }

    @Override
    public GroupDirectory directory() {
      return directory;
    }

    @Override
    public Optional<QuotaGroup> quota(String name) {
      return Optional.ofNullable(quotaByName.get(name));
    }

    @Override
    public List<GroupStatus> children(String parent) {
      return List.copyOf(byParent.getOrDefault(parent, List.of()));
    }

    @Override
    public Optional<ResourceList> ownRequest(String group) {
      return Optional.ofNullable(ownRequests.get(group));
    }

    @Override
    public List<PodAssignment> podsOf(String group) {
      return List.copyOf(podsByGroup.getOrDefault(group, List.of()));
    }

    @Override
    public Map<String, Instant> overUsedSince() {
      return overUsedSince;
    }

    @Override
    public Map<String, ReservationStatus> reservations() {
      return reservations;
    }

    @Override
    public LockedNodes lockedNodes() {
      return lockedNodes;
    }

    @Override
    public DeviceCharge claims(Pod pod) {
      return claimed.charge(pod, dra);
    }

    @Override
    public Optional<QuotaPod> podInput(PodRef ref) {
      return Optional.ofNullable(podInputs.get(ref));
    }

    @Override
    public Optional<ClusterInputs> inputs() {
      return Optional.of(inputs);
    }

    @Override
    public String treeOf(String group) {
      return treeOf.getOrDefault(group, QuotaTrees.DEFAULT_TREE);
    }

    @Override
    public Map<String, QuotaProfile> treeProfiles() {
      return treeProfiles;
    }

    @Override
    public Optional<Map<String, String>> nodeLabels(String name) {
      return Optional.ofNullable(nodeLabels.get(name));
    }

    @Override
    public Optional<PodGroupObject> podGroup(PodGroupKey key) {
      return Optional.ofNullable(podGroups.get(key));
    }

    @Override
    public HistoryAccess history() {
      return history == null ? ClusterView.super.history() : history;
    }
  }
}
