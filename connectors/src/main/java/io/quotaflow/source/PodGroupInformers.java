package io.quotaflow.source;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.informers.ExceptionHandler;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.quotaflow.schemas.PodGroupKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The PodGroup informers of a cluster's pod watch ({@link PodGroupCompanions}), both APIs read as
 * one for {@code podgroups.v1}: one source writes, and snapshots, the PodGroups of both APIs, so a
 * snapshot of one API can never drop the other's. The pod source makes, starts and stops these
 * informers (they are its companions); this only listens to them. With no PodGroup API watched
 * there is nothing to list: the topic then carries the cluster's markers and empty snapshots.
 */
final class PodGroupInformers implements Watched<GenericKubernetesResource, PodGroupKey> {

  private final PodGroupCompanions companions;
  private final List<ResourceEventHandler<GenericKubernetesResource>> handlers =
      new CopyOnWriteArrayList<>();
  // Set once every informer has listed: a relist of one informer is told on from then on.
  private volatile boolean listed;

  PodGroupInformers(final PodGroupCompanions companions) {
    this.companions = Objects.requireNonNull(companions, "companions");
  }

  /**
   * Completes once the pod source made and started the informers and each has listed: then the
   * handlers hear of that list once (a handler added to a started informer hears its objects as
   * added, but not its list). This does not start them: the pod source does.
   */
  @Override
  public CompletableFuture<Void> start() {
    return companions
        .made()
        .thenCompose(
            made -> {
              // Started by the pod source, which sets their exception handler first.
              companions.byConvention().forEach(this::listenTo);
              return companions.whenListed();
            })
        .thenRun(
            () -> {
              listed = true;
              handlers.forEach(handler -> handler.onList(null, false));
            });
  }

  private void listenTo(
      final String convention, final SharedIndexInformer<GenericKubernetesResource> informer) {
    informer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(final GenericKubernetesResource podGroup) {
            final GenericKubernetesResource read = PodGroupCompanions.ofApi(podGroup, convention);
            handlers.forEach(handler -> handler.onAdd(read));
          }

          @Override
          public void onUpdate(
              final GenericKubernetesResource before, final GenericKubernetesResource after) {
            final GenericKubernetesResource was = PodGroupCompanions.ofApi(before, convention);
            final GenericKubernetesResource now = PodGroupCompanions.ofApi(after, convention);
            handlers.forEach(handler -> handler.onUpdate(was, now));
          }

          @Override
          public void onDelete(
              final GenericKubernetesResource podGroup, final boolean finalStateUnknown) {
            final GenericKubernetesResource read = PodGroupCompanions.ofApi(podGroup, convention);
            handlers.forEach(handler -> handler.onDelete(read, finalStateUnknown));
          }

          @Override
          public void onList(final String resourceVersion, final boolean remainedEmpty) {
            if (listed) {
              handlers.forEach(handler -> handler.onList(resourceVersion, remainedEmpty));
            }
          }
        });
  }

  /** The pod source stops the informers, its companions. */
  @Override
  public void stop() {}

  @Override
  public boolean hasSynced() {
    return companions.made().isDone()
        && informers().stream().allMatch(SharedIndexInformer::hasSynced);
  }

  @Override
  public boolean isWatching() {
    return companions.made().isDone()
        && informers().stream().allMatch(SharedIndexInformer::isWatching);
  }

  @Override
  public Collection<GenericKubernetesResource> list() {
    final List<GenericKubernetesResource> all = new ArrayList<>();
    companions
        .byConvention()
        .forEach(
            (convention, informer) ->
                informer.getStore().list().stream()
                    .map(podGroup -> PodGroupCompanions.ofApi(podGroup, convention))
                    .forEach(all::add));
    return all;
  }

  @Override
  public Optional<GenericKubernetesResource> current(final PodGroupKey key) {
    final SharedIndexInformer<GenericKubernetesResource> informer =
        companions.byConvention().get(key.getConvention());
    if (informer == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(
            informer.getStore().getByKey(Cache.namespaceKeyFunc(key.getNamespace(), key.getName())))
        .map(podGroup -> PodGroupCompanions.ofApi(podGroup, key.getConvention()));
  }

  @Override
  public void addEventHandler(final ResourceEventHandler<GenericKubernetesResource> handler) {
    handlers.add(handler);
  }

  /** The pod source handles its companions' failures (and names them in its logs). */
  @Override
  public void exceptionHandler(final ExceptionHandler handler) {}

  private Collection<SharedIndexInformer<GenericKubernetesResource>> informers() {
    final Map<String, SharedIndexInformer<GenericKubernetesResource>> made =
        companions.byConvention();
    return made.values();
  }
}
