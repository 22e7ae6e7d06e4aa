package io.quotaflow.kube;

import java.util.Objects;

/**
 * Which PodGroup object a gang reads its minMember from: the PodGroup of the gang's convention
 * (whose API it is, {@link PodGroupApi}), in the pod's namespace, named as the gang.
 *
 * @param convention {@link GangConventions#SCHEDULER_PLUGINS} or {@link GangConventions#VOLCANO}
 * @param namespace the namespace of the pods and of the PodGroup
 * @param name the gang's name, the PodGroup's metadata.name
 */
public record PodGroupKey(String convention, String namespace, String name) {

  public PodGroupKey {
    Objects.requireNonNull(convention, "convention");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
  }

  /** The key of a PodGroup object as read. */
  public static PodGroupKey of(PodGroupObject podGroup) {
    return new PodGroupKey(podGroup.convention(), podGroup.namespace(), podGroup.name());
  }
}
