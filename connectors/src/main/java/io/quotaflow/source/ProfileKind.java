package io.quotaflow.source;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.quotaflow.cluster.ElasticQuotaProfiles;
import io.quotaflow.kube.ElasticQuotaProfileAdapter;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.schemas.ProfileKey;
import io.quotaflow.schemas.QuotaProfileSpec;
import io.quotaflow.topics.SourceMarkers;
import io.quotaflow.topics.Topic;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * ElasticQuotaProfile objects of every namespace, to {@code profiles.v1}: one quota tree per node
 * pool. A profile is identified by its name alone (as a group is), so the informer keeps an index
 * by name to find the object behind a key.
 */
final class ProfileKind
    implements SourceKind<GenericKubernetesResource, ProfileKey, QuotaProfileSpec> {

  private final Topic<ProfileKey, QuotaProfileSpec> topic;

  ProfileKind(final Topic<ProfileKey, QuotaProfileSpec> topic) {
    this.topic = Objects.requireNonNull(topic, "topic");
  }

  @Override
  public String name() {
    return "profiles";
  }

  @Override
  public Topic<ProfileKey, QuotaProfileSpec> topic() {
    return topic;
  }

  @Override
  public SharedIndexInformer<GenericKubernetesResource> informer(
      final KubernetesClient client, final Duration resync) {
    return NamedResources.informer(client, ElasticQuotaProfiles.CONTEXT, resync);
  }

  @Override
  public SourceRecord<ProfileKey, QuotaProfileSpec> map(
      final String cluster, final GenericKubernetesResource object) {
    final QuotaProfile profile = ElasticQuotaProfileAdapter.toQuotaProfile(object);
    return new SourceRecord<>(
        RecordMapping.profileKey(cluster, profile),
        RecordMapping.profileSpec(profile),
        profile.problems());
  }

  @Override
  public Optional<GenericKubernetesResource> current(
      final SharedIndexInformer<GenericKubernetesResource> informer, final ProfileKey key) {
    return NamedResources.named(informer, key.getName());
  }

  @Override
  public ProfileKey markerKey(final String cluster) {
    return SourceMarkers.profileKey(cluster);
  }

  @Override
  public String clusterOf(final ProfileKey key) {
    return key.getCluster();
  }

  @Override
  public String describe(final ProfileKey key) {
    return "profile " + key.getName();
  }
}
