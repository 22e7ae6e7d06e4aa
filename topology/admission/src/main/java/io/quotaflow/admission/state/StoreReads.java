package io.quotaflow.admission.state;

import io.quotaflow.dra.ClaimedDevices;
import io.quotaflow.engine.TopologyNames;
import io.quotaflow.engine.convert.InputRecords;
import io.quotaflow.engine.devices.ClusterDevices;
import io.quotaflow.engine.query.RuntimeQueries;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.engine.store.InputId;
import io.quotaflow.engine.store.KeyPrefixes;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.profile.QuotaTrees;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.schemas.internal.ClusterEvent;
import io.quotaflow.tree.GroupDirectory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The engine's stores as this instance reads them, its active tasks' or (for the standby reader)
 * also the standby replicas kept here: each store by name, and from {@code cluster-inputs} a
 * cluster's specifications, kept for {@code specTtl} because reading them scans its inputs, and its
 * DRA objects.
 */
final class StoreReads {

  /** One cluster's specifications, indexed by name and by parent, and its profile trees. */
  record Specs(
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
  private final boolean stale;
  private final Clock clock;
  private final Duration specTtl;
  private final ClaimedDevices claimed;
  private final Map<String, Specs> specs = new ConcurrentHashMap<>();

  /**
   * @param stale whether the standby replicas kept here are read too
   */
  StoreReads(
      KafkaStreams streams, boolean stale, Clock clock, Duration specTtl, ClaimedDevices claimed) {
    this.streams = streams;
    this.stale = stale;
    this.clock = clock;
    this.specTtl = specTtl;
    this.claimed = claimed;
  }

  KafkaStreams streams() {
    return streams;
  }

  /** Whether the standby replicas kept here are read too. */
  boolean stale() {
    return stale;
  }

  ClaimedDevices claimed() {
    return claimed;
  }

  /** The engine's key-value store {@code name}. */
  <K, V> ReadOnlyKeyValueStore<K, V> store(String name) {
    return streams.store(
        RuntimeQueries.parameters(
            StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.<K, V>keyValueStore()),
            stale));
  }

  /** Drops the specifications kept of a cluster no longer in the stores. */
  void forget(String cluster) {
    specs.remove(cluster);
  }

  /** The engine's store of group runtimes. */
  ReadOnlyKeyValueStore<GroupId, GroupRuntime> runtimeStore() {
    return store(TopologyNames.RUNTIME_STORE);
  }

  /** The cluster's specifications, read again once {@code specTtl} old. */
  Specs specs(String cluster) {
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
  ClusterDevices devices(String cluster) {
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

  /** The engine's {@code cluster-inputs} store. */
  ReadOnlyKeyValueStore<InputId, ClusterEvent> inputStore() {
    return store(TopologyNames.CLUSTER_INPUTS_STORE);
  }

  /** What {@code action} reads, a store that cannot be queried now told as such. */
  static <T> T read(Supplier<T> action) {
    try {
      return action.get();
    } catch (InvalidStateStoreException e) {
      throw new StateUnavailableException("the stores are not queryable: " + e.getMessage(), e);
    }
  }
}
