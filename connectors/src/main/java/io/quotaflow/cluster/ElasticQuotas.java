package io.quotaflow.cluster;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.quotaflow.kube.ElasticQuotaApi;

/**
 * The ElasticQuota custom resource as the fabric8 client addresses it, without generated classes.
 */
public final class ElasticQuotas {

  /**
   * {@code scheduling.sigs.k8s.io/v1alpha1}, kind ElasticQuota, plural elasticquotas, namespaced.
   */
  public static final ResourceDefinitionContext CONTEXT =
      new ResourceDefinitionContext.Builder()
          .withGroup(ElasticQuotaApi.GROUP)
          .withVersion(ElasticQuotaApi.VERSION)
          .withKind(ElasticQuotaApi.KIND)
          .withPlural(ElasticQuotaApi.PLURAL)
          .withNamespaced(true)
          .build();

  private ElasticQuotas() {}
}
