package io.quotaflow.source;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.quotaflow.cluster.ElasticQuotas;
import io.quotaflow.kube.ElasticQuotaAdapter;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.topics.Topic;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * ElasticQuota objects of every namespace, to {@code quotas.v1}. A group is identified by its name
 * alone (SPEC 3), so the informer keeps an index by name to find the object behind a key; of
 * several objects with one name the first created stands for it, and the record names the
 * namespaces of the others, which are ignored.
 */
final class ElasticQuotaKind implements SourceKind<GenericKubernetesResource, QuotaKey, QuotaSpec> {

  private final Topic<QuotaKey, QuotaSpec> topic;

  // The informer this kind made, to find an object's namesakes when it is mapped.
  private volatile SharedIndexInformer<GenericKubernetesResource> informer;

  ElasticQuotaKind(final Topic<QuotaKey, QuotaSpec> topic) {
    this.topic = Objects.requireNonNull(topic, "topic");
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
    return informer;
  }

  @Override
  public SourceRecord<QuotaKey, QuotaSpec> map(
      final String cluster, final GenericKubernetesResource object) {
    final QuotaGroup read = ElasticQuotaAdapter.toQuotaGroup(object);
    final SharedIndexInformer<GenericKubernetesResource> named = informer;
    final QuotaGroup group =
        named == null
            ? read
            : read.toBuilder()
                .ignoredNamesakes(NamedResources.ignoredNamesakes(named, read.name()))
                .build();
    return new SourceRecord<>(
        RecordMapping.quotaKey(cluster, group), RecordMapping.quotaSpec(group), group.problems());
  }

  @Override
  public Optional<GenericKubernetesResource> current(
      final SharedIndexInformer<GenericKubernetesResource> informer, final QuotaKey key) {
    return NamedResources.named(informer, key.getName());
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
