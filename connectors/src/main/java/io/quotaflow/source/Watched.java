package io.quotaflow.source;

import io.fabric8.kubernetes.client.informers.ExceptionHandler;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * What a {@link ClusterSource} watches of its kind: one informer ({@link InformerWatch}), or
 * several read as one (the PodGroups of both APIs, {@link PodGroupInformers}), so that one source
 * writes, and snapshots, every object of its topic.
 *
 * @param <T> the fabric8 type of the objects
 * @param <K> the record key
 */
interface Watched<T, K> {

  /** Starts watching; completes once every object has been listed. */
  CompletableFuture<Void> start();

  /** Stops watching. */
  void stop();

  /** Whether every object has been listed at least once. */
  boolean hasSynced();

  /** Whether the watch is up. */
  boolean isWatching();

  /** Every object held now. */
  Collection<T> list();

  /** The object held now under {@code key}, if any. */
  Optional<T> current(K key);

  /** Hears of every change, and of each list once complete. Call before {@link #start}. */
  void addEventHandler(ResourceEventHandler<T> handler);

  /** Decides what becomes of a failing watch. Call before {@link #start}. */
  void exceptionHandler(ExceptionHandler handler);
}
