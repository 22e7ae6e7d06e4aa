package io.quotaflow.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.quotaflow.quota.Gang;
import io.quotaflow.quota.QuotaPod;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** How a pod's gang takes its minMember from a PodGroup, in simulate and on clusters alike. */
class PodGroupMembershipTest {

  private static final Map<PodGroupKey, PodGroupObject> POD_GROUPS =
      Map.of(
          new PodGroupKey("scheduler-plugins", "team", "train"),
          podGroup("scheduler-plugins", "team", "train", 4),
          new PodGroupKey("volcano", "team", "mpi"),
          podGroup("volcano", "team", "mpi", 6),
          new PodGroupKey("scheduler-plugins", "team", "koord"),
          podGroup("scheduler-plugins", "team", "koord", 9));

  @Test
  void aSchedulerPluginsGangTakesTheMinMemberOfItsPodGroup() {
    final QuotaPod pod = pod("team", Map.of("scheduling.x-k8s.io/pod-group", "train"), Map.of());

    assertThat(PodGroupMembership.podGroupOf(pod))
        .contains(new PodGroupKey("scheduler-plugins", "team", "train"));
    assertThat(joined(pod).gang())
        .contains(new Gang("train", OptionalInt.of(4), "scheduler-plugins"));
  }

  @Test
  void aVolcanoGangTakesTheMinMemberOfItsPodGroup() {
    final QuotaPod pod = pod("team", Map.of(), Map.of("scheduling.k8s.io/group-name", "mpi"));

    assertThat(joined(pod).gang()).contains(new Gang("mpi", OptionalInt.of(6), "volcano"));
  }

  @Test
  void aPodGroupOfAnotherConventionOrNamespaceIsNotItsGangs() {
    final QuotaPod otherApi =
        pod("team", Map.of(), Map.of("scheduling.k8s.io/group-name", "train"));
    final QuotaPod otherNamespace =
        pod("lab", Map.of("scheduling.x-k8s.io/pod-group", "train"), Map.of());

    assertThat(joined(otherApi)).isEqualTo(otherApi);
    assertThat(joined(otherApi).gang().orElseThrow().minMember()).isEmpty();
    assertThat(joined(otherNamespace)).isEqualTo(otherNamespace);
  }

  @Test
  void aMinAvailableOnThePodIsKeptAndReadsNoPodGroup() {
    final QuotaPod pod =
        pod(
            "team",
            Map.of("scheduling.x-k8s.io/pod-group", "koord"),
            Map.of(
                "gang.scheduling.koordinator.sh/name", "koord",
                "gang.scheduling.koordinator.sh/min-available", "2"));

    assertThat(PodGroupMembership.podGroupOf(pod)).isEmpty();
    assertThat(joined(pod).gang())
        .contains(new Gang("koord", OptionalInt.of(2), "scheduler-plugins"));
  }

  @Test
  void aKoordinatorGangWithoutMinAvailableReadsNoPodGroup() {
    final QuotaPod pod =
        pod("team", Map.of(), Map.of("gang.scheduling.koordinator.sh/name", "train"));

    assertThat(PodGroupMembership.podGroupOf(pod)).isEmpty();
    assertThat(joined(pod)).isEqualTo(pod);
  }

  @Test
  void aMissingPodGroupOrOneWithoutMinMemberLeavesTheMinMemberUnknown() {
    final QuotaPod pod = pod("team", Map.of("scheduling.x-k8s.io/pod-group", "train"), Map.of());

    assertThat(PodGroupMembership.withMinMember(pod, key -> Optional.empty())).isEqualTo(pod);
    assertThat(
            PodGroupMembership.withMinMember(
                pod,
                key ->
                    Optional.of(
                        new PodGroupObject(
                            "team", "train", "scheduler-plugins", OptionalInt.empty(), List.of()))))
        .isEqualTo(pod);
  }

  @Test
  void aPodWithoutAGangIsLeftAsItIs() {
    final QuotaPod pod = pod("team", Map.of("app", "web"), Map.of());

    assertThat(PodGroupMembership.podGroupOf(pod)).isEmpty();
    assertThat(joined(pod)).isEqualTo(pod);
  }

  private static QuotaPod joined(final QuotaPod pod) {
    return PodGroupMembership.withMinMember(pod, key -> Optional.ofNullable(POD_GROUPS.get(key)));
  }

  private static PodGroupObject podGroup(
      final String convention, final String namespace, final String name, final int minMember) {
    return new PodGroupObject(namespace, name, convention, OptionalInt.of(minMember), List.of());
  }

  private static QuotaPod pod(
      final String namespace,
      final Map<String, String> labels,
      final Map<String, String> annotations) {
    return PodAdapter.toQuotaPod(
        new PodBuilder()
            .withNewMetadata()
            .withNamespace(namespace)
            .withName("w-0")
            .withUid("u-0")
            .withLabels(labels)
            .withAnnotations(annotations)
            .endMetadata()
            .withNewSpec()
            .endSpec()
            .build());
  }
}
