package io.quotaflow.kube;

import java.util.Optional;

/**
 * The identities of the two PodGroup custom resources that declare a gang's minMember (issue 28):
 * scheduler-plugins' ({@value #SCHEDULER_PLUGINS_API_VERSION}) and Volcano's ({@value
 * #VOLCANO_API_VERSION}), both namespaced, both of kind {@value #KIND}. Read as generic resources.
 */
public final class PodGroupApi {

  public static final String KIND = "PodGroup";
  public static final String SCHEDULER_PLUGINS_API_VERSION = "scheduling.x-k8s.io/v1alpha1";
  public static final String VOLCANO_API_VERSION = "scheduling.volcano.sh/v1beta1";

  private PodGroupApi() {}

  /** Whether an object's apiVersion and kind are those of either PodGroup. */
  public static boolean isPodGroup(String apiVersion, String kind) {
    return convention(apiVersion, kind).isPresent();
  }

  /**
   * The gang convention ({@link GangConventions#SCHEDULER_PLUGINS} or {@link
   * GangConventions#VOLCANO}) whose PodGroup the object is; empty for any other object.
   */
  public static Optional<String> convention(String apiVersion, String kind) {
    if (!KIND.equals(kind)) {
      return Optional.empty();
    }
    if (SCHEDULER_PLUGINS_API_VERSION.equals(apiVersion)) {
      return Optional.of(GangConventions.SCHEDULER_PLUGINS);
    }
    if (VOLCANO_API_VERSION.equals(apiVersion)) {
      return Optional.of(GangConventions.VOLCANO);
    }
    return Optional.empty();
  }
}
