package io.quotaflow.local;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.AttributeType;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * fabric8's CRUD dispatcher with its objects indexed by name, and a create that skips HTTP.
 *
 * <p>The CRUD dispatcher finds the object a create, replace or patch names by testing every stored
 * object against the request: filling it with n objects costs n²/2 tests, minutes for an
 * organisation of 20,000 pods (issue 32). The index narrows the test to the objects of that name
 * and namespace (of that name alone when the request names no namespace). It learns each stored
 * object's key by computing it as the dispatcher does; were the two ever to differ (another fabric8
 * version), the index turns itself off and every lookup tests every object again: slower, never
 * wrong.
 */
class IndexedCrudDispatcher extends KubernetesCrudDispatcher {

  private static final String HTTP_VERSION = "HTTP/1.1";

  private final Map<Attribute, Set<AttributeSet>> byName = new ConcurrentHashMap<>();
  private final Map<List<Attribute>, Set<AttributeSet>> byNamespacedName =
      new ConcurrentHashMap<>();
  private volatile boolean indexed = true;

  /**
   * Creates one object as {@code POST path} would, in this thread, under the dispatcher's lock: the
   * same checks (a name taken is a 409), metadata (uid, resourceVersion) and watch events.
   *
   * @param collectionPath the collection's path, e.g. {@code /api/v1/namespaces/team-a/pods}
   * @param json the object
   * @return the dispatcher's answer
   */
  MockResponse create(final String collectionPath, final String json) {
    return dispatch(
        new RecordedRequest(
            HTTP_VERSION,
            HttpMethod.POST,
            collectionPath,
            Headers.builder().add("Content-Type", "application/json").build(),
            new Buffer().writeUtf8(json)));
  }

  @Override
  public Map.Entry<AttributeSet, String> findResource(final AttributeSet attributes) {
    final Attribute name = attributes.getAttribute(KubernetesAttributesExtractor.NAME);
    if (!indexed || name == null || name.getType() != AttributeType.WITH) {
      return super.findResource(attributes);
    }
    // A stored object matches only if its name (and namespace) attributes equal the query's.
    final Attribute namespace = attributes.getAttribute(KubernetesAttributesExtractor.NAMESPACE);
    final Set<AttributeSet> candidates =
        namespace != null && namespace.getType() == AttributeType.WITH
            ? byNamespacedName.get(List.of(name, namespace))
            : byName.get(name);
    for (final AttributeSet key : candidates == null ? Set.<AttributeSet>of() : candidates) {
      final String value = map.get(key);
      if (value != null && key.matches(attributes)) {
        return Map.entry(key, value);
      }
    }
    return null;
  }

  @Override
  public void processEvent(
      final String path,
      final AttributeSet pathAttributes,
      final AttributeSet oldAttributes,
      final GenericKubernetesResource resource,
      final String newState) {
    super.processEvent(path, pathAttributes, oldAttributes, resource, newState);
    if (oldAttributes != null) {
      unindex(oldAttributes);
    }
    if (newState != null && indexed) {
      final AttributeSet key = storedKey(pathAttributes, resource, newState);
      if (newState.equals(map.get(key))) {
        index(key);
      } else {
        indexed = false;
        byName.clear();
        byNamespacedName.clear();
      }
    }
  }

  @Override
  public void reset() {
    super.reset();
    byName.clear();
    byNamespacedName.clear();
  }

  /** Whether lookups by name use the index (they stop doing so if it could be wrong). */
  boolean indexed() {
    return indexed;
  }

  /** The key the dispatcher stores {@code newState} under, computed as it computes it. */
  private AttributeSet storedKey(
      final AttributeSet pathAttributes,
      final GenericKubernetesResource resource,
      final String newState) {
    final KubernetesAttributesExtractor extractor =
        (KubernetesAttributesExtractor) attributeExtractor;
    final AttributeSet own =
        resource != null ? extractor.extract(resource) : extractor.fromResource(newState);
    return own.containsKey(KubernetesAttributesExtractor.PLURAL)
        ? own
        : AttributeSet.merge(pathAttributes, own);
  }

  private void index(final AttributeSet key) {
    final Attribute name = key.getAttribute(KubernetesAttributesExtractor.NAME);
    if (name != null) {
      byName.computeIfAbsent(name, n -> ConcurrentHashMap.newKeySet()).add(key);
      namespacedName(key, name)
          .ifPresent(
              named ->
                  byNamespacedName
                      .computeIfAbsent(named, n -> ConcurrentHashMap.newKeySet())
                      .add(key));
    }
  }

  private void unindex(final AttributeSet key) {
    final Attribute name = key.getAttribute(KubernetesAttributesExtractor.NAME);
    if (name != null) {
      remove(byName, name, key);
      namespacedName(key, name).ifPresent(named -> remove(byNamespacedName, named, key));
    }
  }

  private static Optional<List<Attribute>> namespacedName(
      final AttributeSet key, final Attribute name) {
    final Attribute namespace = key.getAttribute(KubernetesAttributesExtractor.NAMESPACE);
    return namespace == null ? Optional.empty() : Optional.of(List.of(name, namespace));
  }

  private static <K> void remove(
      final Map<K, Set<AttributeSet>> index, final K bucket, final AttributeSet key) {
    index.computeIfPresent(
        bucket,
        (b, keys) -> {
          keys.remove(key);
          return keys.isEmpty() ? null : keys;
        });
  }
}
