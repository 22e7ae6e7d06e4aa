package io.quotaflow.kube;

import io.quotaflow.quota.Gang;
import io.quotaflow.quota.QuotaPod;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * The one rule by which a pod's gang takes its minMember from a PodGroup object (issue 28), shared
 * by {@code simulate}'s manifests and the connectors' PodGroup watch so both read a cluster alike:
 * a gang of the scheduler-plugins or Volcano convention whose pod does not give its minMember takes
 * the {@code spec.minMember} of the PodGroup of its convention, namespace and name. A minMember the
 * pod gives (Koordinator's min-available) is kept; a Koordinator gang reads no PodGroup.
 */
public final class PodGroupMembership {

  private PodGroupMembership() {}

  /**
   * The PodGroup the pod's gang reads its minMember from; empty when the pod has no gang, gives its
   * minMember itself, or names its gang by a convention without PodGroup objects.
   */
  public static Optional<PodGroupKey> podGroupOf(QuotaPod pod) {
    return pod.gang().flatMap(gang -> podGroupOf(pod.ref().namespace(), gang));
  }

  /**
   * The PodGroup the gang of a pod in {@code namespace} reads its minMember from, as {@link
   * #podGroupOf(QuotaPod)}: for readers that have the gang alone ({@link GangConventions#read}).
   */
  public static Optional<PodGroupKey> podGroupOf(String namespace, Gang gang) {
    if (gang.minMember().isPresent() || !hasPodGroups(gang.convention())) {
      return Optional.empty();
    }
    return Optional.of(new PodGroupKey(gang.convention(), namespace, gang.name()));
  }

  /**
   * The pod with its gang's minMember filled from its PodGroup, where {@link #podGroupOf} names one
   * and {@code podGroups} knows it with a minMember; otherwise the pod as it is.
   *
   * @param podGroups the PodGroup objects known, by key
   */
  public static QuotaPod withMinMember(
      QuotaPod pod, Function<PodGroupKey, Optional<PodGroupObject>> podGroups) {
    final Optional<PodGroupKey> key = podGroupOf(pod);
    if (key.isEmpty()) {
      return pod;
    }
    final OptionalInt minMember =
        podGroups.apply(key.get()).map(PodGroupObject::minMember).orElse(OptionalInt.empty());
    if (minMember.isEmpty()) {
      return pod;
    }
    final Gang gang = pod.gang().orElseThrow();
    return pod.toBuilder().gang(new Gang(gang.name(), minMember, gang.convention())).build();
  }

  private static boolean hasPodGroups(String convention) {
    return GangConventions.SCHEDULER_PLUGINS.equals(convention)
        || GangConventions.VOLCANO.equals(convention);
  }
}
