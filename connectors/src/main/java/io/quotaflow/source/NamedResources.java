package io.quotaflow.source;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.quotaflow.cluster.Namesakes;
import io.quotaflow.quota.SpecialQuotaNamespaces;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Custom resources identified by their name alone, whatever their namespace (ElasticQuotas, as
 * Koordinator reads them, and ElasticQuotaProfiles): an informer over every namespace with an index
 * by name, and the one object a name stands for.
 */
final class NamedResources {
  private static final String BY_NAME = "quotaflow-name";

  private NamedResources() {}

  /** An informer of {@code context}'s objects in every namespace, indexed by name. */
  static SharedIndexInformer<GenericKubernetesResource> informer(
      final KubernetesClient client,
      final ResourceDefinitionContext context,
      final Duration resync) {
    final SharedIndexInformer<GenericKubernetesResource> informer =
        client
            .genericKubernetesResources(context)
            .inAnyNamespace()
            .runnableInformer(resync.toMillis());
    informer.addIndexers(Map.of(BY_NAME, object -> List.of(object.getMetadata().getName())));
    return informer;
  }

  /**
   * The object named {@code name}. Two objects with one name in different namespaces are one to
   * Koordinator; the first created wins ({@link Namesakes}), so a later namesake never shadows it
   * and the choice does not depend on event order.
   */
  static Optional<GenericKubernetesResource> named(
      final SharedIndexInformer<GenericKubernetesResource> informer, final String name) {
    return Namesakes.winner(informer.getIndexer().byIndex(BY_NAME, name));
  }

  /**
   * The ElasticQuota named {@code name}: as {@link #named}, an object named like a special group
   * outside the special namespaces never standing for it (issue 39).
   */
  static Optional<GenericKubernetesResource> named(
      final SharedIndexInformer<GenericKubernetesResource> informer,
      final String name,
      final SpecialQuotaNamespaces special) {
    return Namesakes.winner(informer.getIndexer().byIndex(BY_NAME, name), special);
  }

  /** The namespaces of the ElasticQuotas named {@code name} that {@link #named} ignores. */
  static List<String> ignoredNamesakes(
      final SharedIndexInformer<GenericKubernetesResource> informer,
      final String name,
      final SpecialQuotaNamespaces special) {
    return Namesakes.ignored(informer.getIndexer().byIndex(BY_NAME, name), special);
  }

  /** The namespaces of the objects named {@code name} that {@link #named} ignores. */
  static List<String> ignoredNamesakes(
      final SharedIndexInformer<GenericKubernetesResource> informer, final String name) {
    return Namesakes.ignored(informer.getIndexer().byIndex(BY_NAME, name));
  }
}
