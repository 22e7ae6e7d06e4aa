package io.quotaflow.source;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.quotaflow.dra.DraApi;
import io.quotaflow.engine.convert.DraRecords;
import io.quotaflow.schemas.DeviceClassState;
import io.quotaflow.schemas.DraKey;
import io.quotaflow.schemas.ResourceClaimState;
import io.quotaflow.schemas.ResourceClaimTemplateState;
import io.quotaflow.schemas.ResourceSliceState;
import io.quotaflow.topics.SourceMarkers;
import io.quotaflow.topics.Topic;
import io.quotaflow.topics.TopicCatalogue;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One kind of Dynamic Resource Allocation object (resource.k8s.io/v1) to its topic, keeping only
 * what counting pods' claims reads ({@link DraRecords}; docs/semantics.md section 22). Watched as
 * {@code source.dra} says ({@link DraWatch}): on {@code auto}, only where the cluster serves the
 * kind in resource.k8s.io/v1, so a cluster without DRA is not watched and writes nothing, not even
 * markers.
 *
 * @param <T> the fabric8 type of the object
 * @param <V> the record value
 */
final class DraKind<T extends HasMetadata, V> implements SourceKind<T, DraKey, V> {

  private static final Logger LOG = LoggerFactory.getLogger(DraKind.class);

  private final String name;
  private final String plural;
  private final Class<T> type;
  private final boolean namespaced;
  private final Topic<DraKey, V> topic;
  private final Function<T, V> value;
  private final DraWatch watch;
  private volatile KubernetesClient client;
  // Decided by prepare(): watched unless source.dra or discovery says otherwise.
  private volatile boolean watched = true;

  private DraKind(
      final String name,
      final String plural,
      final Class<T> type,
      final boolean namespaced,
      final Topic<DraKey, V> topic,
      final Function<T, V> value,
      final DraWatch watch) {
    this.name = name;
    this.plural = plural;
    this.type = type;
    this.namespaced = namespaced;
    this.topic = Objects.requireNonNull(topic, "topic");
    this.value = value;
    this.watch = Objects.requireNonNull(watch, "watch");
  }

  /** The four DRA kinds, each to its topic of {@code topics}. */
  static List<DraKind<?, ?>> all(final TopicCatalogue topics, final DraWatch watch) {
    return List.of(
        new DraKind<DeviceClass, DeviceClassState>(
            "deviceclasses",
            "deviceclasses",
            DeviceClass.class,
            false,
            topics.deviceClasses(),
            DraRecords::deviceClassState,
            watch),
        new DraKind<ResourceClaim, ResourceClaimState>(
            "resourceclaims",
            "resourceclaims",
            ResourceClaim.class,
            true,
            topics.resourceClaims(),
            DraRecords::resourceClaimState,
            watch),
        new DraKind<ResourceClaimTemplate, ResourceClaimTemplateState>(
            "resourceclaimtemplates",
            "resourceclaimtemplates",
            ResourceClaimTemplate.class,
            true,
            topics.resourceClaimTemplates(),
            DraRecords::resourceClaimTemplateState,
            watch),
        new DraKind<ResourceSlice, ResourceSliceState>(
            "resourceslices",
            "resourceslices",
            ResourceSlice.class,
            false,
            topics.resourceSlices(),
            DraRecords::resourceSliceState,
            watch));
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Topic<DraKey, V> topic() {
    return topic;
  }

  @Override
  public SharedIndexInformer<T> informer(final KubernetesClient client, final Duration resync) {
    this.client = client;
    return namespaced
        ? client
            .resources(type)
            .inAnyNamespace()
            .withLimit(ListPaging.PAGE_SIZE)
            .runnableInformer(resync.toMillis())
        : client
            .resources(type)
            .withLimit(ListPaging.PAGE_SIZE)
            .runnableInformer(resync.toMillis());
  }

  /**
   * Decides whether to watch: always or never as set, or, on {@code auto}, whether the cluster
   * serves the kind in resource.k8s.io/v1, asked until the API server answers (a cluster whose API
   * server is away at start is not taken for one without DRA).
   */
  @Override
  public CompletableFuture<Void> prepare(
      final String cluster, final ScheduledExecutorService scheduler) {
    return switch (watch) {
      case NEVER -> {
        watched = false;
        LOG.info("cluster {}: {} not watched (source.dra=false)", cluster, name);
        yield CompletableFuture.completedFuture(null);
      }
      case ALWAYS -> CompletableFuture.completedFuture(null);
      case AUTO ->
          UntilAnswered.call(
                  this::served,
                  scheduler,
                  UntilAnswered.FIRST_DELAY,
                  UntilAnswered.LONGEST_DELAY,
                  error ->
                      LOG.warn(
                          "cluster {}: cannot tell whether {} are served, asking again: {}",
                          cluster,
                          name,
                          error.toString()))
              .thenAccept(
                  served -> {
                    watched = served;
                    if (!served) {
                      LOG.info(
                          "cluster {}: {} are not served in {} and not watched; pods' claims"
                              + " charge nothing (source.dra=auto)",
                          cluster,
                          name,
                          DraApi.API_VERSION);
                    }
                  });
    };
  }

  /** Whether the API server lists this kind in resource.k8s.io/v1; false when it answers 404. */
  private boolean served() {
    final APIResourceList resources = client.getApiResources(DraApi.API_VERSION);
    return resources != null
        && resources.getResources() != null
        && resources.getResources().stream().map(APIResource::getName).anyMatch(plural::equals);
  }

  @Override
  public boolean watched() {
    return watched;
  }

  @Override
  public SourceRecord<DraKey, V> map(final String cluster, final T object) {
    final String namespace =
        namespaced && object.getMetadata().getNamespace() != null
            ? object.getMetadata().getNamespace()
            : "";
    return new SourceRecord<>(
        new DraKey(cluster, namespace, object.getMetadata().getName()),
        value.apply(object),
        List.of());
  }

  @Override
  public Optional<T> current(final SharedIndexInformer<T> informer, final DraKey key) {
    final String storeKey =
        namespaced ? Cache.namespaceKeyFunc(key.getNamespace(), key.getName()) : key.getName();
    return Optional.ofNullable(informer.getStore().getByKey(storeKey));
  }

  @Override
  public DraKey markerKey(final String cluster) {
    return SourceMarkers.draKey(cluster);
  }

  @Override
  public String clusterOf(final DraKey key) {
    return key.getCluster();
  }

  @Override
  public String describe(final DraKey key) {
    return key.getNamespace().isEmpty()
        ? name + " " + key.getName()
        : name + " " + key.getNamespace() + "/" + key.getName();
  }
}
