package io.quotaflow.cluster;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.quotaflow.kube.PodGroupApi;
import java.util.List;

/**
 * The two PodGroup custom resources ({@link PodGroupApi}) as the fabric8 client addresses them,
 * without generated classes: scheduler-plugins' and Volcano's, both namespaced, plural {@value
 * #PLURAL}.
 */
public final class PodGroups {

  /** The plural both APIs serve their PodGroups under. */
  public static final String PLURAL = "podgroups";

  /** {@code scheduling.x-k8s.io/v1alpha1}, read for the scheduler-plugins convention. */
  public static final ResourceDefinitionContext SCHEDULER_PLUGINS =
      context(PodGroupApi.SCHEDULER_PLUGINS_API_VERSION);

  /** {@code scheduling.volcano.sh/v1beta1}, read for the Volcano convention. */
  public static final ResourceDefinitionContext VOLCANO = context(PodGroupApi.VOLCANO_API_VERSION);

  /** Both, scheduler-plugins' first. */
  public static final List<ResourceDefinitionContext> ALL = List.of(SCHEDULER_PLUGINS, VOLCANO);

  private PodGroups() {}

  /** The apiVersion of a PodGroup context: {@code group/version}. */
  public static String apiVersion(final ResourceDefinitionContext context) {
    return context.getGroup() + "/" + context.getVersion();
  }

  /** The gang convention whose PodGroups {@code context} serves. */
  public static String convention(final ResourceDefinitionContext context) {
    return PodGroupApi.convention(apiVersion(context), PodGroupApi.KIND)
        .orElseThrow(() -> new IllegalArgumentException("not a PodGroup API: " + context));
  }

  /** The context of a PodGroup apiVersion of {@link PodGroupApi}. */
  private static ResourceDefinitionContext context(final String apiVersion) {
    final String[] groupAndVersion = apiVersion.split("/", 2);
    return new ResourceDefinitionContext.Builder()
        .withGroup(groupAndVersion[0])
        .withVersion(groupAndVersion[1])
        .withKind(PodGroupApi.KIND)
        .withPlural(PLURAL)
        .withNamespaced(true)
        .build();
  }
}
