package io.quotaflow.source;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.quotaflow.cluster.PodGroups;
import io.quotaflow.kube.PodAdapter;
import io.quotaflow.kube.PodGroupMembership;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodState;
import io.quotaflow.topics.SourceMarkers;
import io.quotaflow.topics.Topic;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pods of every namespace, to {@code pods.v1}. A pod whose gang keeps its minMember in a PodGroup
 * object (scheduler-plugins, Volcano) is written with that PodGroup's minMember ({@link
 * PodGroupMembership}), read from PodGroup informers that are this kind's companions, as {@code
 * source.podgroups} says ({@link PodGroupWatch}).
 */
final class PodKind implements SourceKind<Pod, PodKey, PodState> {

  private static final Logger LOG = LoggerFactory.getLogger(PodKind.class);

  private final Topic<PodKey, PodState> topic;
  private final PodGroupWatch podGroupWatch;
  private final PodGroupCompanions podGroups = new PodGroupCompanions();
  // Set by informer(): the PodGroup informers are made with the same client and resync.
  private volatile KubernetesClient client;
  private volatile Duration resync;
  private volatile SharedIndexInformer<Pod> informer;
  // Set by prepare(), for logs.
  private volatile String cluster = "";

  /** Pods without PodGroups: such gangs keep their minMember unknown. */
  PodKind(final Topic<PodKey, PodState> topic) {
    this(topic, PodGroupWatch.NEVER);
  }

  PodKind(final Topic<PodKey, PodState> topic, final PodGroupWatch podGroupWatch) {
    this.topic = Objects.requireNonNull(topic, "topic");
    this.podGroupWatch = Objects.requireNonNull(podGroupWatch, "podGroupWatch");
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
    this.client = client;
    this.resync = resync;
    final SharedIndexInformer<Pod> pods =
        client
            .pods()
            .inAnyNamespace()
            .withLimit(ListPaging.PAGE_SIZE)
            .runnableInformer(resync.toMillis());
    pods.itemStore(new TrimmingStore<>(TrimmedObjects::pod));
    PodGroupCompanions.indexPods(pods);
    informer = pods;
    return pods;
  }

  /**
   * Decides which PodGroup APIs to watch: both or none as set, or, on {@code auto}, those the
   * cluster serves, asked until the API server answers (a cluster whose API server is away at start
   * is not taken for one without PodGroups).
   */
  @Override
  public CompletableFuture<Void> prepare(
      final String cluster, final ScheduledExecutorService scheduler) {
    this.cluster = cluster;
    return switch (podGroupWatch) {
      case NEVER -> {
        LOG.info("cluster {}: PodGroups not watched (source.podgroups=false)", cluster);
        podGroups.watch(client, List.of(), resync);
        yield CompletableFuture.completedFuture(null);
      }
      case ALWAYS -> {
        watch(cluster, PodGroups.ALL);
        yield CompletableFuture.completedFuture(null);
      }
      case AUTO ->
          UntilAnswered.call(
                  () -> PodGroupDiscovery.served(client),
                  scheduler,
                  UntilAnswered.FIRST_DELAY,
                  UntilAnswered.LONGEST_DELAY,
                  error ->
                      LOG.warn(
                          "cluster {}: cannot tell which PodGroup APIs are served, asking again: {}",
                          cluster,
                          error.toString()))
              .thenAccept(served -> watch(cluster, served));
    };
  }

  private void watch(final String cluster, final List<ResourceDefinitionContext> apis) {
    for (final ResourceDefinitionContext api : PodGroups.ALL) {
      if (apis.contains(api)) {
        LOG.info("cluster {}: watching PodGroups {}", cluster, PodGroups.apiVersion(api));
      } else {
        LOG.info(
            "cluster {}: PodGroups {} are not served and not watched; their gangs' minMember"
                + " stays unknown (source.podgroups={})",
            cluster,
            PodGroups.apiVersion(api),
            "auto");
      }
    }
    podGroups.watch(client, apis, resync);
  }

  /** The PodGroup informers this kind makes and starts: podgroups.v1 is written from them. */
  PodGroupCompanions podGroups() {
    return podGroups;
  }

  @Override
  public List<SharedIndexInformer<?>> companions() {
    return podGroups.informers();
  }

  @Override
  public void companionsListed() {
    podGroups.listed();
  }

  /** A PodGroup added, deleted or given another minMember: its gang's pods are mapped again. */
  @Override
  public void onCompanionChange(final Consumer<Pod> republish) {
    podGroups.onChange(cluster, informer, republish);
  }

  @Override
  public SourceRecord<PodKey, PodState> map(final String cluster, final Pod object) {
    final QuotaPod pod =
        PodGroupMembership.withMinMember(PodAdapter.toQuotaPod(object), podGroups::podGroup);
    return new SourceRecord<>(
        RecordMapping.podKey(cluster, pod), RecordMapping.podState(pod, object), pod.problems());
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
