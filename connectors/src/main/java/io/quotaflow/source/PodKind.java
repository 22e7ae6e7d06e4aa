package io.quotaflow.source;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.quotaflow.kube.PodAdapter;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodState;
import io.quotaflow.topics.SourceMarkers;
import io.quotaflow.topics.Topic;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/** Pods of every namespace, to {@code pods.v1}. */
final class PodKind implements SourceKind<Pod, PodKey, PodState> {

  private final Topic<PodKey, PodState> topic;

  PodKind(final Topic<PodKey, PodState> topic) {
    this.topic = Objects.requireNonNull(topic, "topic");
  }

  @Override
  public String name() {
    return "pods";
  }

  @Override
  public Topic<PodKey, PodState> topic() {
    return topic;
  }

  @Override
  public SharedIndexInformer<Pod> informer(final KubernetesClient client, final Duration resync) {
    return client.pods().inAnyNamespace().runnableInformer(resync.toMillis());
  }

  @Override
  public SourceRecord<PodKey, PodState> map(final String cluster, final Pod object) {
    final QuotaPod pod = PodAdapter.toQuotaPod(object);
    return new SourceRecord<>(
        RecordMapping.podKey(cluster, pod), RecordMapping.podState(pod), pod.problems());
  }

  @Override
  public Optional<Pod> current(final SharedIndexInformer<Pod> informer, final PodKey key) {
    return Optional.ofNullable(
        informer.getStore().getByKey(Cache.namespaceKeyFunc(key.getNamespace(), key.getName())));
  }

  @Override
  public PodKey markerKey(final String cluster) {
    return SourceMarkers.podKey(cluster);
  }

  @Override
  public String clusterOf(final PodKey key) {
    return key.getCluster();
  }

  @Override
  public String describe(final PodKey key) {
    return "pod " + key.getNamespace() + "/" + key.getName();
  }
}
