package io.quotaflow.kube;

/**
 * The identity of the ElasticQuota custom resource ({@code scheduling.sigs.k8s.io/v1alpha1}), read
 * as a generic resource so that no CRD classes need to be generated.
 */
public final class ElasticQuotaApi {

  public static final String GROUP = "scheduling.sigs.k8s.io";
  public static final String VERSION = "v1alpha1";
  public static final String API_VERSION = GROUP + "/" + VERSION;
  public static final String KIND = "ElasticQuota";
  public static final String PLURAL = "elasticquotas";

  private ElasticQuotaApi() {}

  /** Whether an object's apiVersion and kind are those of an ElasticQuota. */
  public static boolean isElasticQuota(String apiVersion, String kind) {
    return API_VERSION.equals(apiVersion) && KIND.equals(kind);
  }
}
