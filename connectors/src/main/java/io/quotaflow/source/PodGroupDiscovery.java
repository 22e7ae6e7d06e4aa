package io.quotaflow.source;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.quotaflow.cluster.PodGroups;
import java.util.ArrayList;
import java.util.List;

/**
 * Asks a cluster's API server which PodGroup APIs it serves, as {@code kubectl api-resources} does:
 * an API is served when its group version is discovered and lists the {@value PodGroups#PLURAL}
 * resource. A group version the server does not know (404) is not served.
 */
final class PodGroupDiscovery {

  private PodGroupDiscovery() {}

  /**
   * The PodGroup APIs {@code client}'s cluster serves, scheduler-plugins' first.
   *
   * @throws KubernetesClientException when the API server did not answer (unreachable, an error):
   *     nothing can be said then
   */
  static List<ResourceDefinitionContext> served(final KubernetesClient client) {
    final List<ResourceDefinitionContext> served = new ArrayList<>(PodGroups.ALL.size());
    for (final ResourceDefinitionContext api : PodGroups.ALL) {
      // Null when the API server answers 404: the group version is not served.
      final APIResourceList resources = client.getApiResources(PodGroups.apiVersion(api));
      if (resources != null && lists(resources, api.getPlural())) {
        served.add(api);
      }
    }
    return served;
  }

  private static boolean lists(final APIResourceList resources, final String plural) {
    return resources.getResources() != null
        && resources.getResources().stream().map(APIResource::getName).anyMatch(plural::equals);
  }
}
