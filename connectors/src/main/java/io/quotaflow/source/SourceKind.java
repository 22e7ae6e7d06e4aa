package io.quotaflow.source;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.quotaflow.topics.Topic;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;

/**
 * One kind of Kubernetes object the source watches: how to watch it, which topic it goes to, and
 * how one object becomes a keyed record (through the quota core's adapters).
 *
 * @param <T> the fabric8 type of the object
 * @param <K> the record key
 * @param <V> the record value
 */
interface SourceKind<T extends HasMetadata, K, V> {

  /** A short name for logs and metrics: {@code pods}, {@code quotas}, {@code nodes}. */
  String name();

  /** The topic the records go to. */
  Topic<K, V> topic();

  /** A new informer over every object of this kind in the cluster; not started. */
  SharedIndexInformer<T> informer(KubernetesClient client, Duration resync);

  /**
   * What the source watches: by default a new {@link #informer}, its objects found by {@link
   * #current}; not started.
   */
  default Watched<T, K> watch(final KubernetesClient client, final Duration resync) {
    final SharedIndexInformer<T> informer = informer(client, resync);
    return new InformerWatch<>(informer, key -> current(informer, key));
  }

  /**
   * What must be learnt of the cluster before the {@link #companions} can be made (which custom
   * resources it serves), after {@link #informer}; completes once they are made. At once by
   * default.
   *
   * @param scheduler where calls to the API server may run and be retried
   */
  default CompletableFuture<Void> prepare(String cluster, ScheduledExecutorService scheduler) {
    return CompletableFuture.completedFuture(null);
  }

  /**
   * Whether the kind is watched in this cluster, once {@link #prepare} completed: a kind the
   * cluster does not serve (DRA on a cluster without resource.k8s.io/v1) is not, and its source
   * then starts no informer and writes no record. True by default.
   */
  default boolean watched() {
    return true;
  }

  /**
   * Informers of other objects this kind's records are computed from (the Namespaces a quota's
   * namespace selector reads, the PodGroups a pod's gang reads), made by {@link #informer} or
   * {@link #prepare}: started, and listed, before it, stopped with it; final once {@link #prepare}
   * completed. None by default.
   */
  default List<SharedIndexInformer<?>> companions() {
    return List.of();
  }

  /** Told once the {@link #companions} have all listed (after their start). Nothing by default. */
  default void companionsListed() {}

  /**
   * Asks to hear of changes of the {@link #companions}, once {@link #prepare} completed: {@code
   * republish} is given each object of this kind whose record may have changed with them. Nothing
   * by default.
   */
  default void onCompanionChange(Consumer<T> republish) {}

  /** The key and value for an object of {@code cluster}. */
  SourceRecord<K, V> map(String cluster, T object);

  /** The object the informer holds now under this key, if any. */
  Optional<T> current(SharedIndexInformer<T> informer, K key);

  /** The key of {@code cluster}'s markers on this kind's topic (see {@code SourceMarkers}). */
  K markerKey(String cluster);

  /** The cluster a key belongs to. */
  String clusterOf(K key);

  /** How a key reads in logs: {@code pod team-a/web-1}. */
  String describe(K key);
}
