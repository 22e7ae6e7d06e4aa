package io.quotaflow.source;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.quotaflow.kube.PodGroupAdapter;
import io.quotaflow.kube.PodGroupObject;
import io.quotaflow.schemas.PodGroupKey;
import io.quotaflow.schemas.PodGroupSpec;
import io.quotaflow.topics.SourceMarkers;
import io.quotaflow.topics.Topic;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;

/**
 * PodGroups of scheduler-plugins and Volcano, to {@code podgroups.v1}: where the admission plugin
 * finds the minMember of a gang whose first member it judges (docs/semantics.md 21.2). Both APIs
 * are one kind, read from the PodGroup informers the pod kind already makes ({@link
 * PodGroupInformers}): the cluster's PodGroups are watched once, and one snapshot covers both APIs.
 */
final class PodGroupKind
    implements SourceKind<GenericKubernetesResource, PodGroupKey, PodGroupSpec> {

  private final Topic<PodGroupKey, PodGroupSpec> topic;
  private final PodGroupCompanions companions;

  /**
   * @param topic podgroups.v1
   * @param companions the PodGroup informers of the same cluster's pod kind
   */
  PodGroupKind(final Topic<PodGroupKey, PodGroupSpec> topic, final PodGroupCompanions companions) {
    this.topic = Objects.requireNonNull(topic, "topic");
    this.companions = Objects.requireNonNull(companions, "companions");
  }

  @Override
  public String name() {
    return "podgroups";
  }

  @Override
  public Topic<PodGroupKey, PodGroupSpec> topic() {
    return topic;
  }

  /** Not used: the PodGroups are watched through the pod kind's informers ({@link #watch}). */
  @Override
  public SharedIndexInformer<GenericKubernetesResource> informer(
      final KubernetesClient client, final Duration resync) {
    throw new UnsupportedOperationException("PodGroups are watched by the pod kind");
  }

  @Override
  public Watched<GenericKubernetesResource, PodGroupKey> watch(
      final KubernetesClient client, final Duration resync) {
    return new PodGroupInformers(companions);
  }

  /**
   * Waits until the pod kind has decided which PodGroup APIs to watch, and made their informers.
   */
  @Override
  public CompletableFuture<Void> prepare(
      final String cluster, final ScheduledExecutorService scheduler) {
    return companions.made();
  }

  @Override
  public SourceRecord<PodGroupKey, PodGroupSpec> map(
      final String cluster, final GenericKubernetesResource object) {
    final PodGroupObject podGroup = PodGroupAdapter.toPodGroup(object);
    final String uid =
        object.getMetadata() == null || object.getMetadata().getUid() == null
            ? ""
            : object.getMetadata().getUid();
    return new SourceRecord<>(
        RecordMapping.podGroupKey(cluster, podGroup),
        RecordMapping.podGroupSpec(podGroup, uid),
        podGroup.problems());
  }

  /** Not used: {@link PodGroupInformers#current} finds the object. */
  @Override
  public Optional<GenericKubernetesResource> current(
      final SharedIndexInformer<GenericKubernetesResource> informer, final PodGroupKey key) {
    throw new UnsupportedOperationException("PodGroups are watched by the pod kind");
  }

  @Override
  public PodGroupKey markerKey(final String cluster) {
    return SourceMarkers.podGroupKey(cluster);
  }

  @Override
  public String clusterOf(final PodGroupKey key) {
    return key.getCluster();
  }

  @Override
  public String describe(final PodGroupKey key) {
    return key.getConvention() + " PodGroup " + key.getNamespace() + "/" + key.getName();
  }
}
