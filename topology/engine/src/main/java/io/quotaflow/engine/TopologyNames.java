package io.quotaflow.engine;

import io.quotaflow.engine.writers.ClusterWriterBook;
import io.quotaflow.history.HistoryTiers;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The name of every processor, store and internal topic of the engine's topology. They are part of
 * the application's persistent identity: a renamed store or repartition topic is a new one (its
 * state and in-flight records are lost), so change none of them without a migration.
 */
public final class TopologyNames {
  /** Source of pods.v1. */
  public static final String PODS_SOURCE = "pods-source";

  /** Source of quotas.v1. */
  public static final String QUOTAS_SOURCE = "quotas-source";

  /** Source of nodes.v1. */
  public static final String NODES_SOURCE = "nodes-source";

  /** Source of profiles.v1. */
  public static final String PROFILES_SOURCE = "profiles-source";

  /** Source of podgroups.v1. */
  public static final String PODGROUPS_SOURCE = "podgroups-source";

  /** Source of eviction-results.v1. */
  public static final String EVICTION_RESULTS_SOURCE = "eviction-results-source";

  /** Source of denials.v1. */
  public static final String DENIALS_SOURCE = "denials-source";

  /** Validates pod records and wraps them into cluster events. */
  public static final String PODS_TO_EVENTS = "pods-to-cluster-events";

  /** Validates quota records and wraps them into cluster events. */
  public static final String QUOTAS_TO_EVENTS = "quotas-to-cluster-events";

  /** Validates node records and wraps them into cluster events. */
  public static final String NODES_TO_EVENTS = "nodes-to-cluster-events";

  /** Validates profile records and wraps them into cluster events. */
  public static final String PROFILES_TO_EVENTS = "profiles-to-cluster-events";

  /** Validates PodGroup records and wraps them into cluster events. */
  public static final String PODGROUPS_TO_EVENTS = "podgroups-to-cluster-events";

  /** Validates eviction results and wraps them into cluster events. */
  public static final String EVICTION_RESULTS_TO_EVENTS = "eviction-results-to-cluster-events";

  /** Validates denials and wraps them into cluster events. */
  public static final String DENIALS_TO_EVENTS = "denials-to-cluster-events";

  /**
   * Merges the denials into the eviction results: both are written keyed by pod by other
   * applications and reach their cluster's task the same way.
   */
  public static final String MERGE_DENIALS = "merge-denial-events";

  /** Merges the pod and quota event streams. */
  public static final String MERGE_POD_AND_QUOTA_EVENTS = "merge-pod-and-quota-events";

  /** Merges in the node event stream. */
  public static final String MERGE_EVENTS = "merge-cluster-events";

  /** Merges in the profile event stream. */
  public static final String MERGE_PROFILE_EVENTS = "merge-profile-events";

  /** Merges in the PodGroup event stream. */
  public static final String MERGE_PODGROUP_EVENTS = "merge-podgroup-events";

  /** Source of deviceclasses.v1. */
  public static final String DEVICE_CLASSES_SOURCE = "deviceclasses-source";

  /** Source of resourceclaims.v1. */
  public static final String RESOURCE_CLAIMS_SOURCE = "resourceclaims-source";

  /** Source of resourceclaimtemplates.v1. */
  public static final String RESOURCE_CLAIM_TEMPLATES_SOURCE = "resourceclaimtemplates-source";

  /** Source of resourceslices.v1. */
  public static final String RESOURCE_SLICES_SOURCE = "resourceslices-source";

  /** Validates DeviceClass records and wraps them into cluster events. */
  public static final String DEVICE_CLASSES_TO_EVENTS = "deviceclasses-to-cluster-events";

  /** Validates ResourceClaim records and wraps them into cluster events. */
  public static final String RESOURCE_CLAIMS_TO_EVENTS = "resourceclaims-to-cluster-events";

  /** Validates ResourceClaimTemplate records and wraps them into cluster events. */
  public static final String RESOURCE_CLAIM_TEMPLATES_TO_EVENTS =
      "resourceclaimtemplates-to-cluster-events";

  /** Validates ResourceSlice records and wraps them into cluster events. */
  public static final String RESOURCE_SLICES_TO_EVENTS = "resourceslices-to-cluster-events";

  /** Merges in the DeviceClass event stream. */
  public static final String MERGE_DEVICE_CLASS_EVENTS = "merge-deviceclass-events";

  /** Merges in the ResourceClaim event stream. */
  public static final String MERGE_RESOURCE_CLAIM_EVENTS = "merge-resourceclaim-events";

  /** Merges in the ResourceClaimTemplate event stream. */
  public static final String MERGE_RESOURCE_CLAIM_TEMPLATE_EVENTS =
      "merge-resourceclaimtemplate-events";

  /** Merges in the ResourceSlice event stream. */
  public static final String MERGE_RESOURCE_SLICE_EVENTS = "merge-resourceslice-events";

  /** Merges in the eviction result events. */
  public static final String MERGE_EVICTION_RESULTS = "merge-eviction-result-events";

  /**
   * With inputs partitioned by cluster (the default): the repartition of the eviction results by
   * cluster, which the executor writes keyed by pod; the internal topic is {@code
   * <application.id>-eviction- results-by-cluster-repartition}.
   */
  public static final String EVICTION_RESULTS_BY_CLUSTER = "eviction-results-by-cluster";

  /**
   * With inputs placed by key ({@code inputs.partitioned.by.cluster=false}): the repartition of
   * every input by cluster; the internal topic is {@code <application.id>-cluster-events-
   * repartition}.
   */
  public static final String CLUSTER_EVENTS = "cluster-events";

  /** The per-cluster quota tree processor. */
  public static final String CLUSTER_QUOTA = "cluster-quota";

  /** Sink of runtime.v1. */
  public static final String RUNTIME_SINK = "runtime-sink";

  /** Sink of pod-classes.v1. */
  public static final String POD_CLASSES_SINK = "pod-classes-sink";

  /** Sink of evictions.v1. */
  public static final String EVICTIONS_SINK = "evictions-sink";

  /** Store: the latest input record per object (pod, group, node), by cluster. */
  public static final String CLUSTER_INPUTS_STORE = "cluster-inputs";

  /** Store (queryable): the last emitted runtime record per group, by cluster then group. */
  public static final String RUNTIME_STORE = "runtime";

  /** Store (queryable): each pod's group and class, by cluster, group, namespace, name. */
  public static final String POD_ASSIGNMENTS_STORE = "pod-assignments";

  /** Store: since when each over-used group has been over-used. */
  public static final String OVER_USED_SINCE_STORE = "over-used-since";

  /** Store: the eviction command issued per pod, until the pod is gone. */
  public static final String EVICTION_LEDGER_STORE = "eviction-ledger";

  /**
   * Store: per pod whose last command's result was not EVICTED, when it may be commanded again
   * (epoch millis; {@code Long.MAX_VALUE} once its attempts are used up).
   */
  public static final String EVICTION_RETRY_AT_STORE = "eviction-retry-at";

  /**
   * Store (queryable): each reserving group's node reservation as last planned (locked nodes,
   * satisfied, idle, age), by cluster then group: the scheduler filter's locks, and the locks a
   * restarted task keeps.
   */
  public static final String RESERVATIONS_STORE = "reservations";

  /**
   * Store: since when each pod of another group has run on a node locked by a Guaranteed
   * reservation (epoch millis): it is evicted once that lasts the revoke delay.
   */
  public static final String RESERVATION_INTRUDERS_SINCE_STORE = "reservation-intruders-since";

  /**
   * Store (queryable): how fresh each cluster's inputs of each kind are, from the connectors'
   * markers, by cluster then input kind: reclaim waits, and admission answers are marked stale,
   * while they are not fresh.
   */
  public static final String INPUT_FRESHNESS_STORE = "input-freshness";

  /**
   * Store (queryable, windowed): each group's history, one record per step window in which it
   * changed (docs/semantics.md section 23). Its name carries the step: a new step starts a new
   * history instead of misreading the old one.
   */
  public static String historyStore(final Duration step) {
    return HISTORY_STORE_PREFIX + step.toSeconds() + "s";
  }

  private static final String HISTORY_STORE_PREFIX = "group-history-";

  /** Whether {@code store} is a history store, whatever its step. */
  public static boolean isHistoryStore(final String store) {
    return store.startsWith(HISTORY_STORE_PREFIX);
  }

  /**
   * The store of fair share's memory (docs/semantics.md section 24), only with {@code
   * fairshare.memory.enabled}.
   */
  public static final String FAIRSHARE_MEMORY_STORE = "fairshare-memory";

  /** Every store of the cluster-quota processor: the history's two only when it is kept. */
  public static List<String> clusterQuotaStores(final Optional<HistoryTiers> history) {
    return clusterQuotaStores(history, false);
  }

  /**
   * Every store of the cluster-quota processor: the history's two tiers only when it is kept, fair
   * share's memory only when it is on.
   */
  public static List<String> clusterQuotaStores(
      final Optional<HistoryTiers> history, final boolean fairShareMemory) {
    final List<String> stores = new java.util.ArrayList<>(CLUSTER_QUOTA_STORES);
    history.ifPresent(
        tiers -> {
          stores.add(historyStore(tiers.fineStep()));
          stores.add(historyStore(tiers.coarseStep()));
        });
    if (fairShareMemory) {
      stores.add(FAIRSHARE_MEMORY_STORE);
    }
    return List.copyOf(stores);
  }

  /** Every key-value store of the cluster-quota processor. */
  public static final List<String> CLUSTER_QUOTA_STORES =
      List.of(
          CLUSTER_INPUTS_STORE,
          RUNTIME_STORE,
          POD_ASSIGNMENTS_STORE,
          OVER_USED_SINCE_STORE,
          EVICTION_LEDGER_STORE,
          EVICTION_RETRY_AT_STORE,
          RESERVATIONS_STORE,
          RESERVATION_INTRUDERS_SINCE_STORE,
          INPUT_FRESHNESS_STORE,
          ClusterWriterBook.STORE);

  private TopologyNames() {}
}
