package io.quotaflow.status;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.quotaflow.cluster.ElasticQuotas;
import io.quotaflow.cluster.KubeCluster;
import io.quotaflow.cluster.Namesakes;
import io.quotaflow.quota.SpecialQuotaNamespaces;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The ElasticQuota objects of one cluster as an informer holds them, found by group name (a group
 * is named uniquely per cluster; the namespace is where the object happens to live). Every object
 * that appears or changes is reported, so the writer can check it still shows the latest status.
 */
final class ClusterQuotas implements AutoCloseable {

  private static final String BY_NAME = "quotaflow-name";

  private final KubeCluster cluster;
  private final SpecialQuotaNamespaces special;
  private final SharedIndexInformer<GenericKubernetesResource> informer;

  ClusterQuotas(
      final KubeCluster cluster,
      final Duration resync,
      final SpecialQuotaNamespaces special,
      final Consumer<String> changed) {
    this.cluster = cluster;
    this.special = special;
    this.informer =
        cluster
            .client()
            .genericKubernetesResources(ElasticQuotas.CONTEXT)
            .inAnyNamespace()
            .runnableInformer(resync.toMillis());
    informer.addIndexers(Map.of(BY_NAME, quota -> List.of(quota.getMetadata().getName())));
    informer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(final GenericKubernetesResource quota) {
            changed.accept(quota.getMetadata().getName());
          }

          @Override
          public void onUpdate(
              final GenericKubernetesResource before, final GenericKubernetesResource after) {
            changed.accept(after.getMetadata().getName());
          }

          @Override
          public void onDelete(final GenericKubernetesResource quota, final boolean unknown) {
            // Nothing to write on an object that is gone.
          }
        });
  }

  /** Starts watching; completes once the informer has listed. */
  CompletableFuture<Void> start() {
    return informer.start().toCompletableFuture();
  }

  /**
   * The object of a group, if the cluster has one, by the source's rule: the first created wins,
   * and a special group's object counts only in the special namespaces (issue 39.5).
   */
  Optional<GenericKubernetesResource> byName(final String name) {
    return Namesakes.winner(informer.getIndexer().byIndex(BY_NAME, name), special);
  }

  /** The API of one object, to patch it. */
  Resource<GenericKubernetesResource> resource(final GenericKubernetesResource quota) {
    return cluster
        .client()
        .genericKubernetesResources(ElasticQuotas.CONTEXT)
        .inNamespace(quota.getMetadata().getNamespace())
        .withName(quota.getMetadata().getName());
  }

  @Override
  public void close() {
    informer.stop();
  }
}
