package io.quotaflow.engine.query;

import io.quotaflow.engine.TopologyNames;
import io.quotaflow.engine.convert.OutputRecords;
import io.quotaflow.engine.convert.ReservationRecords;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.engine.store.GroupPodId;
import io.quotaflow.engine.store.KeyPrefixes;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.reservation.ReservationStatus;
import io.quotaflow.rules.GroupLookup;
import io.quotaflow.schemas.GroupReservation;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.PodQuotaClass;
import io.quotaflow.topics.ClusterPartitioner;
import io.quotaflow.tree.GroupStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.processor.StreamPartitioner;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Read-only answers from the engine's queryable stores, for the admission plugin and the query API:
 * "group G of cluster X" is one lookup, "the tree of cluster X" and "the pods of group G" one
 * prefix scan each; other clusters are never read. It answers for the clusters whose tasks this
 * instance holds; {@link #owner} says which instance holds another.
 */
public final class RuntimeQueries {
  private final ReadOnlyKeyValueStore<GroupId, GroupRuntime> runtime;
  private final ReadOnlyKeyValueStore<GroupPodId, PodQuotaClass> pods;
  private final Optional<ReadOnlyKeyValueStore<GroupId, GroupReservation>> reservations;

  private RuntimeQueries(
      final ReadOnlyKeyValueStore<GroupId, GroupRuntime> runtime,
      final ReadOnlyKeyValueStore<GroupPodId, PodQuotaClass> pods,
      final Optional<ReadOnlyKeyValueStore<GroupId, GroupReservation>> reservations) {
    this.runtime = Objects.requireNonNull(runtime, "runtime");
    this.pods = Objects.requireNonNull(pods, "pods");
    this.reservations = Objects.requireNonNull(reservations, "reservations");
  }

  /** Queries over the given stores (e.g. those of a test driver), without reservations. */
  public static RuntimeQueries of(
      final ReadOnlyKeyValueStore<GroupId, GroupRuntime> runtime,
      final ReadOnlyKeyValueStore<GroupPodId, PodQuotaClass> pods) {
    return new RuntimeQueries(runtime, pods, Optional.empty());
  }

  /** Queries over the given stores (e.g. those of a test driver). */
  public static RuntimeQueries of(
      final ReadOnlyKeyValueStore<GroupId, GroupRuntime> runtime,
      final ReadOnlyKeyValueStore<GroupPodId, PodQuotaClass> pods,
      final ReadOnlyKeyValueStore<GroupId, GroupReservation> reservations) {
    return new RuntimeQueries(runtime, pods, Optional.of(reservations));
  }

  /**
   * Queries over the local stores of a running application.
   *
   * @throws org.apache.kafka.streams.errors.InvalidStateStoreException while the stores are not
   *     queryable (e.g. during a rebalance)
   */
  public static RuntimeQueries of(final KafkaStreams streams) {
    return of(streams, false);
  }

  /**
   * Queries over the local stores of a running application; with {@code stale}, also over the
   * standby replicas kept here (Kafka Streams' stale stores), which lag their active task by what
   * they have not read of its changelog yet.
   *
   * @throws org.apache.kafka.streams.errors.InvalidStateStoreException while the stores are not
   *     queryable (e.g. during a rebalance)
   */
  public static RuntimeQueries of(final KafkaStreams streams, final boolean stale) {
    return new RuntimeQueries(
        streams.store(
            parameters(
                StoreQueryParameters.fromNameAndType(
                    TopologyNames.RUNTIME_STORE,
                    QueryableStoreTypes.<GroupId, GroupRuntime>keyValueStore()),
                stale)),
        streams.store(
            parameters(
                StoreQueryParameters.fromNameAndType(
                    TopologyNames.POD_ASSIGNMENTS_STORE,
                    QueryableStoreTypes.<GroupPodId, PodQuotaClass>keyValueStore()),
                stale)),
        Optional.of(
            streams.store(
                parameters(
                    StoreQueryParameters.fromNameAndType(
                        TopologyNames.RESERVATIONS_STORE,
                        QueryableStoreTypes.<GroupId, GroupReservation>keyValueStore()),
                    stale))));
  }

  /** {@code parameters}, over the standby replicas too when {@code stale}. */
  public static <T> StoreQueryParameters<T> parameters(
      final StoreQueryParameters<T> parameters, final boolean stale) {
    return stale ? parameters.enableStaleStores() : parameters;
  }

  /**
   * The node reservation of every reserving group of {@code cluster}, by group: one prefix scan of
   * the reservations store, which holds only reserving groups. Empty without that store.
   */
  public Map<String, ReservationStatus> reservations(final String cluster) {
    if (reservations.isEmpty()) {
      return Map.of();
    }
    final Map<String, ReservationStatus> result = new TreeMap<>();
    try (KeyValueIterator<GroupId, GroupReservation> scan =
        reservations.get().prefixScan(cluster, KeyPrefixes.cluster())) {
      scan.forEachRemaining(
          entry -> result.put(entry.key.name(), ReservationRecords.status(entry.value)));
    }
    return result;
  }

  /** The node reservation of group {@code name} of {@code cluster}, if it has one. */
  public Optional<ReservationStatus> reservation(final String cluster, final String name) {
    return reservations
        .map(store -> store.get(new GroupId(cluster, name)))
        .map(ReservationRecords::status);
  }

  /**
   * Which instance holds {@code cluster}: its tree lives in the task of the partition {@link
   * ClusterPartitioner} gives its name, the one its inputs are on (or, with inputs placed by key,
   * the cluster-events partition its name hashes to, which is the same partition).
   */
  public static KeyQueryMetadata owner(final KafkaStreams streams, final String cluster) {
    final StreamPartitioner<String, Void> byCluster =
        (topic, key, value, partitions) ->
            Optional.of(Set.of(ClusterPartitioner.partitionOf(key, partitions)));
    return streams.queryMetadataForKey(TopologyNames.RUNTIME_STORE, cluster, byCluster);
  }

  /** The last computed status of group {@code name} of {@code cluster}. */
  public Optional<GroupStatus> group(final String cluster, final String name) {
    final GroupRuntime record = runtime.get(new GroupId(cluster, name));
    return record == null ? Optional.empty() : Optional.of(OutputRecords.status(name, record));
  }

  /**
   * What the pods charged directly to group {@code name} of {@code cluster} request, before its
   * request floor, as of its last runtime record; empty when the group has no record.
   */
  public Optional<ResourceList> ownRequest(final String cluster, final String name) {
    final GroupRuntime record = runtime.get(new GroupId(cluster, name));
    return record == null ? Optional.empty() : Optional.of(OutputRecords.ownRequest(record));
  }

  /**
   * The quota tree of group {@code name} of {@code cluster} as its last runtime record says: the
   * profile's tree id, or empty for the default tree and for a group without a record.
   */
  public Optional<String> treeOf(final String cluster, final String name) {
    final GroupRuntime record = runtime.get(new GroupId(cluster, name));
    return record == null ? Optional.empty() : record.getTree();
  }

  /** Every group of {@code cluster}, by name; empty for a cluster this instance does not hold. */
  public List<GroupStatus> tree(final String cluster) {
    final List<GroupStatus> groups = new ArrayList<>();
    try (KeyValueIterator<GroupId, GroupRuntime> scan =
        runtime.prefixScan(cluster, KeyPrefixes.cluster())) {
      while (scan.hasNext()) {
        final KeyValue<GroupId, GroupRuntime> entry = scan.next();
        groups.add(OutputRecords.status(entry.key.name(), entry.value));
      }
    }
    return groups;
  }

  /** The groups of {@code cluster} as the admission check looks them up. */
  public GroupLookup lookup(final String cluster) {
    return name -> group(cluster, name);
  }

  /** The pods charged to group {@code group} of {@code cluster}, by namespace and name. */
  public List<PodInGroup> podsOf(final String cluster, final String group) {
    final List<PodInGroup> result = new ArrayList<>();
    try (KeyValueIterator<GroupPodId, PodQuotaClass> scan =
        pods.prefixScan(new GroupId(cluster, group), KeyPrefixes.group())) {
      while (scan.hasNext()) {
        final KeyValue<GroupPodId, PodQuotaClass> entry = scan.next();
        result.add(
            new PodInGroup(
                entry.key.ref(),
                entry.value.getPodUid(),
                OutputRecords.podClass(entry.value.getQuotaClass())));
      }
    }
    return result;
  }
}
