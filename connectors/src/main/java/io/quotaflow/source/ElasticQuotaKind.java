package io.quotaflow.source;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.quotaflow.cluster.ElasticQuotas;
import io.quotaflow.kube.ElasticQuotaAdapter;
import io.quotaflow.kube.QuotaLabels;
import io.quotaflow.quota.NamespaceSelector;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.SpecialQuotaNamespaces;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.topics.SourceMarkers;
import io.quotaflow.topics.Topic;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * ElasticQuota objects of every namespace, to {@code quotas.v1}. A group is identified by its name
 * alone (SPEC 3), so the informer keeps an index by name to find the object behind a key; of
 * several objects with one name the first created stands for it, and the record names the
 * namespaces of the others, which are ignored. An object named like a special group outside the
 * special namespaces ({@code source.quota.special.namespaces}) never stands for it (issue 39).
 */
final class ElasticQuotaKind implements SourceKind<GenericKubernetesResource, QuotaKey, QuotaSpec> {

  private final Topic<QuotaKey, QuotaSpec> topic;
  private final SpecialQuotaNamespaces special;

  // The informers this kind made: to find an object's namesakes, and the namespaces its selector
  // selects, when it is mapped.
  private volatile SharedIndexInformer<GenericKubernetesResource> informer;
  private volatile SharedIndexInformer<Namespace> namespaces;

  ElasticQuotaKind(final Topic<QuotaKey, QuotaSpec> topic, final SpecialQuotaNamespaces special) {
    this.topic = Objects.requireNonNull(topic, "topic");
    this.special = Objects.requireNonNull(special, "special");
  }

  @Override
  public String name() {
    return "quotas";
  }

  @Override
  public Topic<QuotaKey, QuotaSpec> topic() {
    return topic;
  }

  @Override
  public SharedIndexInformer<GenericKubernetesResource> informer(
      final KubernetesClient client, final Duration resync) {
    informer = NamedResources.informer(client, ElasticQuotas.CONTEXT, resync);
    namespaces = client.namespaces().runnableInformer(resync.toMillis());
    return informer;
  }

  @Override
  public List<SharedIndexInformer<?>> companions() {
    return namespaces == null ? List.of() : List.of(namespaces);
  }

  /** A namespace added, relabelled or deleted: the quotas with a selector are mapped again. */
  @Override
  public void onCompanionChange(final Consumer<GenericKubernetesResource> republish) {
    final SharedIndexInformer<Namespace> watched = namespaces;
    if (watched == null) {
      return;
    }
    final Runnable selectorsAgain =
        () -> {
          for (final GenericKubernetesResource quota : informer.getStore().list()) {
            final Map<String, String> annotations = quota.getMetadata().getAnnotations();
            if (annotations != null && annotations.containsKey(QuotaLabels.NAMESPACE_SELECTOR)) {
              republish.accept(quota);
            }
          }
        };
    watched.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(final Namespace namespace) {
            selectorsAgain.run();
          }

          @Override
          public void onUpdate(final Namespace before, final Namespace after) {
            if (!Objects.equals(
                before.getMetadata().getLabels(), after.getMetadata().getLabels())) {
              selectorsAgain.run();
            }
          }

          @Override
          public void onDelete(final Namespace namespace, final boolean finalStateUnknown) {
            selectorsAgain.run();
          }
        });
  }

  @Override
  public SourceRecord<QuotaKey, QuotaSpec> map(
      final String cluster, final GenericKubernetesResource object) {
    final QuotaGroup read = ElasticQuotaAdapter.toQuotaGroup(object);
    final SharedIndexInformer<GenericKubernetesResource> named = informer;
    final QuotaGroup.Builder group = read.toBuilder();
    if (named != null) {
      group.ignoredNamesakes(NamedResources.ignoredNamesakes(named, read.name(), special));
    }
    read.namespaceSelector().ifPresent(selector -> group.selectedNamespaces(selected(selector)));
    final QuotaGroup mapped = group.build();
    return new SourceRecord<>(
        RecordMapping.quotaKey(cluster, mapped),
        RecordMapping.quotaSpec(mapped),
        mapped.problems());
  }

  /** The namespaces {@code selector} selects among those watched, sorted. */
  private List<String> selected(final NamespaceSelector selector) {
    final SharedIndexInformer<Namespace> watched = namespaces;
    if (watched == null) {
      return List.of();
    }
    return watched.getStore().list().stream()
        .filter(
            namespace ->
                selector.matches(
                    namespace.getMetadata().getLabels() == null
                        ? Map.of()
                        : namespace.getMetadata().getLabels()))
        .map(namespace -> namespace.getMetadata().getName())
        .sorted()
        .toList();
  }

  @Override
  public Optional<GenericKubernetesResource> current(
      final SharedIndexInformer<GenericKubernetesResource> informer, final QuotaKey key) {
    return NamedResources.named(informer, key.getName(), special);
  }

  @Override
  public QuotaKey markerKey(final String cluster) {
    return SourceMarkers.quotaKey(cluster);
  }

  @Override
  public String clusterOf(final QuotaKey key) {
    return key.getCluster();
  }

  @Override
  public String describe(final QuotaKey key) {
    return "quota " + key.getName();
  }
}
