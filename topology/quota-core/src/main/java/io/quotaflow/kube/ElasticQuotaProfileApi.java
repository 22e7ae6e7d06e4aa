package io.quotaflow.kube;

/**
 * The identity of Koordinator's ElasticQuotaProfile custom resource ({@code
 * quota.koordinator.sh/v1alpha1}, namespaced): one quota tree over a node pool. Read as a generic
 * resource, like the ElasticQuota.
 */
public final class ElasticQuotaProfileApi {

  public static final String GROUP = "quota.koordinator.sh";
  public static final String VERSION = "v1alpha1";
  public static final String API_VERSION = GROUP + "/" + VERSION;
  public static final String KIND = "ElasticQuotaProfile";
  public static final String PLURAL = "elasticquotaprofiles";

  private ElasticQuotaProfileApi() {}

  /** Whether an object's apiVersion and kind are those of an ElasticQuotaProfile. */
  public static boolean isProfile(String apiVersion, String kind) {
    return API_VERSION.equals(apiVersion) && KIND.equals(kind);
  }
}
