package io.quotaflow.source;

import io.fabric8.kubernetes.client.informers.ExceptionHandler;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Collection;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/** One informer as what a source watches: every kind but PodGroups. */
final class InformerWatch<T, K> implements Watched<T, K> {

  private final SharedIndexInformer<T> informer;
  private final Function<K, Optional<T>> current;

  /**
   * @param informer the informer, not started
   * @param current the object the informer holds under a key
   */
  InformerWatch(final SharedIndexInformer<T> informer, final Function<K, Optional<T>> current) {
    this.informer = Objects.requireNonNull(informer, "informer");
    this.current = Objects.requireNonNull(current, "current");
  }

  @Override
  public CompletableFuture<Void> start() {
    return informer.start().toCompletableFuture();
  }

  @Override
  public void stop() {
    informer.stop();
  }

  @Override
  public boolean hasSynced() {
    return informer.hasSynced();
  }

  @Override
  public boolean isWatching() {
    return informer.isWatching();
  }

  @Override
  public Collection<T> list() {
    return informer.getStore().list();
  }

  @Override
  public Optional<T> current(final K key) {
    return current.apply(key);
  }

  @Override
  public void addEventHandler(final ResourceEventHandler<T> handler) {
    informer.addEventHandler(handler);
  }

  @Override
  public void exceptionHandler(final ExceptionHandler handler) {
    informer.exceptionHandler(handler);
  }
}
