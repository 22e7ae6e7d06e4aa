package io.quotaflow.admission.state;

import io.fabric8.kubernetes.api.model.Pod;
import io.quotaflow.dra.DeviceCharge;
import io.quotaflow.engine.TopologyNames;
import io.quotaflow.engine.convert.DraRecords;
import io.quotaflow.engine.convert.InputRecords;
import io.quotaflow.engine.devices.ClusterDevices;
import io.quotaflow.engine.freshness.InputFreshnessBook;
import io.quotaflow.engine.history.HistoryQueries;
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
import io.quotaflow.reservation.ReservationStatus;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.internal.ClusterEvent;
import io.quotaflow.schemas.internal.InputFreshness;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.GroupDirectory;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/** One cluster's state over the engine's stores; every call reads them anew. */
final class StoreClusterView implements ClusterView {
  private final String cluster;
  private final RuntimeQueries queries;
  private final StoreReads reads;
  private final Optional<HistoryTiers> history;

  StoreClusterView(
      String cluster, RuntimeQueries queries, StoreReads reads, Optional<HistoryTiers> history) {
    this.cluster = cluster;
    this.queries = queries;
    this.reads = reads;
    this.history = history;
  }

  @Override
  public Optional<GroupStatus> group(String name) {
    return StoreReads.read(() -> queries.group(cluster, name));
  }

  @Override
  public List<GroupStatus> groups() {
    return StoreReads.read(() -> queries.tree(cluster));
  }

  /** Exact: the engine writes each group's own request on its runtime record. */
  @Override
  public Optional<ResourceList> ownRequest(String group) {
    return StoreReads.read(() -> queries.ownRequest(cluster, group));
  }

  @Override
  public List<QuotaGroup> quotas() {
    return StoreReads.read(() -> reads.specs(cluster).quotas());
  }

  @Override
  public GroupDirectory directory() {
    return StoreReads.read(() -> reads.specs(cluster).directory());
  }

  @Override
  public Optional<QuotaGroup> quota(String name) {
    return StoreReads.read(() -> Optional.ofNullable(reads.specs(cluster).byName().get(name)));
  }

  /**
   * The children named by the (cached) specifications, each status looked up by name: one store
   * read per sibling instead of a scan of the cluster's tree. A group created less than {@code
   * specTtl} ago may be missing until the specifications are read again.
   */
  @Override
  public List<GroupStatus> children(String parent) {
    return StoreReads.read(
        () -> {
          final List<GroupStatus> children = new ArrayList<>();
          for (final String name :
              reads.specs(cluster).childNames().getOrDefault(parent, List.of())) {
            queries.group(cluster, name).ifPresent(children::add);
          }
          return children;
        });
  }

  /** One read of the group's runtime record, which carries its tree. */
  @Override
  public String treeOf(String group) {
    return StoreReads.read(() -> queries.treeOf(cluster, group).orElse(QuotaTrees.DEFAULT_TREE));
  }

  /** From the (cached) profiles: a profile changed less than {@code specTtl} ago may lag. */
  @Override
  public Map<String, QuotaProfile> treeProfiles() {
    return StoreReads.read(() -> reads.specs(cluster).treeProfiles());
  }

  /** One read of the node's input record. */
  @Override
  public Optional<Map<String, String>> nodeLabels(String name) {
    return StoreReads.read(
        () -> {
          final ClusterEvent event =
              reads.inputStore().get(new InputId(cluster, InputId.InputKind.NODE, "", name));
          return event != null && event.getValue().orElse(null) instanceof NodeState state
              ? Optional.of(Map.copyOf(state.getLabels()))
              : Optional.empty();
        });
  }

  /** One read of the PodGroup's input record. */
  @Override
  public Optional<PodGroupObject> podGroup(PodGroupKey key) {
    return StoreReads.read(
        () -> {
          final ClusterEvent event =
              reads
                  .inputStore()
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
    return StoreReads.read(() -> queries.reservations(cluster));
  }

  /** One prefix scan of the engine's reclaim clock (store {@code over-used-since}). */
  @Override
  public Map<String, Instant> overUsedSince() {
    return StoreReads.read(
        () -> {
          final ReadOnlyKeyValueStore<GroupId, Long> store =
              reads.store(TopologyNames.OVER_USED_SINCE_STORE);
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
    return StoreReads.read(
        () -> {
          final ReadOnlyKeyValueStore<InputId, InputFreshness> store =
              reads.store(TopologyNames.INPUT_FRESHNESS_STORE);
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
    return StoreReads.read(() -> reads.claimed().charge(pod, reads.devices(cluster).objects()));
  }

  /** The pod's input record, with its claims' devices as the engine charges them. */
  @Override
  public Optional<QuotaPod> podInput(PodRef ref) {
    return StoreReads.read(
        () -> {
          final ClusterEvent event =
              reads
                  .inputStore()
                  .get(new InputId(cluster, InputId.InputKind.POD, ref.namespace(), ref.name()));
          if (!(event != null && event.getValue().orElse(null) instanceof PodState state)) {
            return Optional.empty();
          }
          return Optional.of(
              DraRecords.hasClaims(state)
                  ? reads.devices(cluster).pod(ref.namespace(), ref.name(), state)
                  : InputRecords.pod(ref.namespace(), ref.name(), state));
        });
  }

  /** One prefix scan of the cluster's inputs, converted as the engine converts them. */
  @Override
  public Optional<ClusterInputs> inputs() {
    return StoreReads.read(
        () -> {
          final StoredInputs stored = new StoredInputs(reads.claimed());
          try (KeyValueIterator<InputId, ClusterEvent> scan =
              reads.inputStore().prefixScan(cluster, KeyPrefixes.cluster())) {
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
    final HistoryQueries queries =
        StoreReads.read(() -> HistoryQueries.of(reads.streams(), history.get()));
    return new HistoryAccess.Kept(
        new TieredHistories(history.get()) {
          @Override
          public List<HistoryStep> steps(
              String group, Instant from, Instant to, Duration step, Instant now) {
            return StoreReads.read(() -> queries.steps(cluster, group, from, to, step, now));
          }

          @Override
          public boolean keepsAny(String group, Instant now) {
            return StoreReads.read(() -> queries.keepsAny(cluster, group, now));
          }

          @Override
          public Map<String, HistoryStep> totals(
              java.util.Collection<String> groups, Instant from, Instant to, Instant now) {
            return StoreReads.read(() -> queries.totals(cluster, groups, from, to, now));
          }
        });
  }

  @Override
  public List<PodAssignment> podsOf(String group) {
    return StoreReads.read(
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
