package io.quotaflow.source;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.Objects;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * An informer's store that keeps a trimmed copy of each object: only what the records are made of
 * (issue 40.3). A full pod is often 5 to 20 KB (managedFields, env, volumes, conditions); 100,000
 * of them would not fit the connectors' heap. Keys are the informer's usual {@code namespace/name}
 * (bare name for cluster-scoped objects). The informer still hands its handlers the full object it
 * received; what it hands later (resyncs, deletes, lookups) is the trimmed one, which maps to the
 * same record ({@code TrimmedObjectsTest}).
 */
final class TrimmingStore<T extends HasMetadata> implements ItemStore<T> {

  private final BasicItemStore<T> store = new BasicItemStore<>(Cache::metaNamespaceKeyFunc);
  private final UnaryOperator<T> trim;

  TrimmingStore(final UnaryOperator<T> trim) {
    this.trim = Objects.requireNonNull(trim, "trim");
  }

  @Override
  public String getKey(final T object) {
    return store.getKey(object);
  }

  @Override
  public T put(final String key, final T object) {
    return store.put(key, trim.apply(object));
  }

  @Override
  public T remove(final String key) {
    return store.remove(key);
  }

  @Override
  public Stream<String> keySet() {
    return store.keySet();
  }

  @Override
  public Stream<T> values() {
    return store.values();
  }

  @Override
  public int size() {
    return store.size();
  }

  @Override
  public T get(final String key) {
    return store.get(key);
  }
}
