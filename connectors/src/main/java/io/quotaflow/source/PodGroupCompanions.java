package io.quotaflow.source;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.quotaflow.cluster.PodGroups;
import io.quotaflow.kube.GangConventions;
import io.quotaflow.kube.PodGroupAdapter;
import io.quotaflow.kube.PodGroupApi;
import io.quotaflow.kube.PodGroupKey;
import io.quotaflow.kube.PodGroupMembership;
import io.quotaflow.kube.PodGroupObject;
import io.quotaflow.quota.SpecProblem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PodGroup informers of one cluster's pod watch (issue 28), one per PodGroup API watched, in
 * every namespace: what a gang's PodGroup says now, and which pods to publish again when it
 * changes. The pod informer is indexed by the PodGroup each pod's gang reads ({@link #indexPods}),
 * so a PodGroup's change republishes exactly its gang's pods, not a scan of every pod. The same
 * informers feed {@code podgroups.v1} ({@link PodGroupInformers}): PodGroups are watched once.
 */
final class PodGroupCompanions {

  private static final Logger LOG = LoggerFactory.getLogger(PodGroupCompanions.class);
  private static final String BY_POD_GROUP = "quotaflow-podgroup";

  // By convention; filled once, before the companions start.
  private volatile Map<String, SharedIndexInformer<GenericKubernetesResource>> informers = Map.of();
  // Completed once the informers are made (none when no API is watched).
  private final CompletableFuture<Void> made = new CompletableFuture<>();
  private final CompletableFuture<Void> listed = new CompletableFuture<>();

  /** Indexes {@code pods} by the PodGroup of each pod's gang. Call before it starts. */
  static void indexPods(final SharedIndexInformer<Pod> pods) {
    pods.addIndexers(Map.of(BY_POD_GROUP, PodGroupCompanions::podGroupIndex));
  }

  /** Makes (does not start) an informer per API of {@code apis}. Once, before any lookup. */
  void watch(
      final KubernetesClient client,
      final List<ResourceDefinitionContext> apis,
      final Duration resync) {
    final Map<String, SharedIndexInformer<GenericKubernetesResource>> made = new LinkedHashMap<>();
    for (final ResourceDefinitionContext api : apis) {
      made.put(
          PodGroups.convention(api),
          client
              .genericKubernetesResources(api)
              .inAnyNamespace()
              .withLimit(ListPaging.PAGE_SIZE)
              .runnableInformer(resync.toMillis()));
    }
    informers = Map.copyOf(made);
    this.made.complete(null);
  }

  /** Tells that the pod source started the informers and each has listed. */
  void listed() {
    listed.complete(null);
  }

  /** Completes once the informers made are started (by the pod source) and have listed. */
  CompletableFuture<Void> whenListed() {
    return listed;
  }

  /** Completes once {@link #watch} made the informers: which they are is then final. */
  CompletableFuture<Void> made() {
    return made;
  }

  /** The informers made, by convention; empty before {@link #made} and when none is watched. */
  Map<String, SharedIndexInformer<GenericKubernetesResource>> byConvention() {
    return informers;
  }

  /** The informers made, for the source to start, stop and watch over. */
  List<SharedIndexInformer<?>> informers() {
    return List.copyOf(informers.values());
  }

  /** The PodGroup of {@code key} as its informer holds it now; empty when not watched or absent. */
  Optional<PodGroupObject> podGroup(final PodGroupKey key) {
    final SharedIndexInformer<GenericKubernetesResource> informer = informers.get(key.convention());
    if (informer == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(
            informer.getStore().getByKey(Cache.namespaceKeyFunc(key.namespace(), key.name())))
        .map(resource -> read(resource, key.convention()));
  }

  /**
   * Tells {@code republish} each pod of {@code pods} whose gang's PodGroup was added, deleted, or
   * changed its minMember. Other changes (Volcano updates a PodGroup's status often) are ignored.
   */
  void onChange(
      final String cluster, final SharedIndexInformer<Pod> pods, final Consumer<Pod> republish) {
    informers.forEach(
        (convention, informer) ->
            informer.addEventHandler(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(final GenericKubernetesResource podGroup) {
                    report(cluster, read(podGroup, convention));
                    gangOf(podGroup);
                  }

                  @Override
                  public void onUpdate(
                      final GenericKubernetesResource before,
                      final GenericKubernetesResource after) {
                    final PodGroupObject now = read(after, convention);
                    if (!read(before, convention).minMember().equals(now.minMember())) {
                      report(cluster, now);
                      gangOf(after);
                    }
                  }

                  @Override
                  public void onDelete(
                      final GenericKubernetesResource podGroup, final boolean finalStateUnknown) {
                    gangOf(podGroup);
                  }

                  private void gangOf(final GenericKubernetesResource podGroup) {
                    final PodGroupKey key = PodGroupKey.of(read(podGroup, convention));
                    pods.getIndexer().byIndex(BY_POD_GROUP, indexKey(key)).forEach(republish);
                  }
                }));
  }

  /** A PodGroup whose minMember cannot be read is logged: its gang's minMember stays unknown. */
  private static void report(final String cluster, final PodGroupObject podGroup) {
    if (!podGroup.problems().isEmpty()) {
      LOG.warn(
          "cluster {}: {} PodGroup {}/{} has fields that cannot be read, its gang's minMember"
              + " stays unknown: {}",
          cluster,
          podGroup.convention(),
          podGroup.namespace(),
          podGroup.name(),
          podGroup.problems().stream()
              .map(SpecProblem::toString)
              .collect(Collectors.joining("; ")));
    }
  }

  /**
   * Reads a PodGroup of {@code convention}'s informer. Its apiVersion and kind are those of the API
   * watched; should a server leave them out, the informer's API stands for them.
   */
  static PodGroupObject read(final GenericKubernetesResource resource, final String convention) {
    return PodGroupAdapter.toPodGroup(ofApi(resource, convention));
  }

  /**
   * A PodGroup of {@code convention}'s informer with that API's apiVersion and kind: those of the
   * API watched, which a server may leave out.
   */
  static GenericKubernetesResource ofApi(
      final GenericKubernetesResource resource, final String convention) {
    if (PodGroupApi.convention(resource.getApiVersion(), resource.getKind())
        .filter(convention::equals)
        .isPresent()) {
      return resource;
    }
    return new GenericKubernetesResourceBuilder(resource)
        .withApiVersion(apiVersionOf(convention))
        .withKind(PodGroupApi.KIND)
        .build();
  }

  private static String apiVersionOf(final String convention) {
    return GangConventions.VOLCANO.equals(convention)
        ? PodGroupApi.VOLCANO_API_VERSION
        : PodGroupApi.SCHEDULER_PLUGINS_API_VERSION;
  }

  /** The PodGroup a pod's gang reads its minMember from, as an index value; none without. */
  private static List<String> podGroupIndex(final Pod pod) {
    final ObjectMeta meta = pod.getMetadata();
    if (meta == null) {
      return List.of();
    }
    final String namespace =
        meta.getNamespace() == null || meta.getNamespace().isEmpty()
            ? "default"
            : meta.getNamespace();
    // Problems are the pod's record's to report (PodAdapter), not the index's.
    return GangConventions.read(
            Objects.requireNonNullElse(meta.getLabels(), Map.of()),
            Objects.requireNonNullElse(meta.getAnnotations(), Map.of()),
            new ArrayList<>())
        .flatMap(gang -> PodGroupMembership.podGroupOf(namespace, gang))
        .map(key -> List.of(indexKey(key)))
        .orElse(List.of());
  }

  // Names and namespaces hold no '/', and a convention is one of two fixed words.
  private static String indexKey(final PodGroupKey key) {
    return key.convention() + "/" + key.namespace() + "/" + key.name();
  }
}
