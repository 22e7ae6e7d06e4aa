package io.quotaflow.cluster;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.quotaflow.kube.ElasticQuotaProfileApi;

/** The ElasticQuotaProfile custom resource as the fabric8 client addresses it. */
public final class ElasticQuotaProfiles {

  /**
   * {@code quota.koordinator.sh/v1alpha1}, kind ElasticQuotaProfile, plural elasticquotaprofiles,
   * namespaced.
   */
  public static final ResourceDefinitionContext CONTEXT =
      new ResourceDefinitionContext.Builder()
          .withGroup(ElasticQuotaProfileApi.GROUP)
          .withVersion(ElasticQuotaProfileApi.VERSION)
          .withKind(ElasticQuotaProfileApi.KIND)
          .withPlural(ElasticQuotaProfileApi.PLURAL)
          .withNamespaced(true)
          .build();

  private ElasticQuotaProfiles() {}
}
