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
 * alone (SPEC 3), so the informer keeps an index by name to find the object behind a key.
 */
final class ElasticQuotaKind implements SourceKind<GenericKubernetesResource, QuotaKey, QuotaSpec> {

  private final Topic<QuotaKey, QuotaSpec> topic;

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
    return NamedResources.informer(client, ElasticQuotas.CONTEXT, resync);
  }

  @Override
  public SourceRecord<QuotaKey, QuotaSpec> map(
      final String cluster, final GenericKubernetesResource object) {
    final QuotaGroup group = ElasticQuotaAdapter.toQuotaGroup(object);
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
