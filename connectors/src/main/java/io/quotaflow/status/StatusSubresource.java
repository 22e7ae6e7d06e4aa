package io.quotaflow.status;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.quotaflow.cluster.ElasticQuotas;
import java.util.List;

/**
 * Whether a cluster's ElasticQuota CRD has a {@code status} subresource, as API discovery tells:
 * {@code GET /apis/scheduling.sigs.k8s.io/v1alpha1} lists {@code elasticquotas/status} only when it
 * has. Koordinator's CRD has none, so its {@code status} is written with the object itself; the
 * scheduler-plugins' CRD has one, and the API server then ignores {@code status} in writes of the
 * object. Discovery needs no RBAC (every authenticated user may read it).
 */
enum StatusSubresource {
  /** Discovery lists {@code elasticquotas/status}: status is written through it. */
  PRESENT,
  /**
   * Discovery lists {@code elasticquotas} without {@code /status}: status is part of the object.
   */
  ABSENT,
  /** Discovery failed or does not list ElasticQuotas at all. */
  UNKNOWN;

  private static final String GROUP_VERSION =
      ElasticQuotas.CONTEXT.getGroup() + "/" + ElasticQuotas.CONTEXT.getVersion();
  private static final String PLURAL = ElasticQuotas.CONTEXT.getPlural();

  /** Asks the cluster's discovery; never throws. */
  static StatusSubresource discover(final KubernetesClient client) {
    try {
      return of(client.getApiResources(GROUP_VERSION));
    } catch (KubernetesClientException e) {
      return UNKNOWN;
    }
  }

  /** What a discovery answer (null when the group version is not served) says. */
  static StatusSubresource of(final APIResourceList resources) {
    if (resources == null || resources.getResources() == null) {
      return UNKNOWN;
    }
    final List<String> names = resources.getResources().stream().map(APIResource::getName).toList();
    if (names.contains(PLURAL + "/status")) {
      return PRESENT;
    }
    return names.contains(PLURAL) ? ABSENT : UNKNOWN;
  }
}
