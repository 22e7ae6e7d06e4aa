package io.quotaflow.tree;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 39, point 1: a pod whose quota-name label names the root or a parent group (one that admits
 * its namespace, here through its namespace selector) is charged as the unlabelled pod of its
 * namespace would be, with the reason, and counted like a pod with an unbound label. Before, it
 * resolved to the parent with a problem: it was charged to no group, never a reclaim victim, and
 * its namespace's group stopped counting it.
 */
class NonLeafLabelTest {

  private static final String GPU = "nvidia.com/gpu";

  private static ClusterQuotaState vision(QuotaOptions options) {
    final ClusterQuotaState state = new ClusterQuotaState(options);
    state.putNode(Fixtures.node("gpu-node-1", ResourceList.of(GPU, 8)));
    state.putGroup(
        QuotaGroup.builder("research")
            .namespace("quotas")
            .selectedNamespaces(List.of("vision"))
            .parentGroup(true)
            .min(ResourceList.of(GPU, 6))
            .max(ResourceList.of(GPU, 8))
            .build());
    state.putGroup(
        QuotaGroup.builder("research-vision")
            .namespace("quotas")
            .parent("research")
            .namespaces(List.of("vision"))
            .min(ResourceList.of(GPU, 4))
            .max(ResourceList.of(GPU, 8))
            .build());
    return state;
  }

  private static QuotaPod gpuPod(String name, String label) {
    return QuotaPod.builder("vision", name)
        .quotaName(label)
        .request(ResourceList.of(GPU, 4))
        .running("gpu-node-1")
        .build();
  }

  @Test
  void aPodLabelledWithTheRootIsChargedToItsNamespacesGroupWithTheReason() {
    final ClusterQuotaState state = vision(QuotaOptions.DEFAULTS);
    state.putPod(gpuPod("escape", SpecialGroups.ROOT));

    final PodAssignment pod = onlyPod(state.recompute());

    assertThat(pod.group()).isEqualTo("research-vision");
    assertThat(pod.problem()).isEmpty();
    assertThat(pod.podClass()).isPresent();
    assertThat(pod.unbound())
        .hasValueSatisfying(
            reason -> assertThat(reason).contains("root group " + SpecialGroups.ROOT));
    assertThat(state.group("research-vision").orElseThrow().used().get(GPU)).isEqualTo(4);
    assertThat(state.unboundPods()).isEqualTo(1);
  }

  @Test
  void aPodLabelledWithAParentThatAdmitsItsNamespaceIsChargedToItsNamespacesGroup() {
    final ClusterQuotaState state = vision(QuotaOptions.DEFAULTS);
    state.putPod(gpuPod("escape", "research"));

    final PodAssignment pod = onlyPod(state.recompute());

    assertThat(pod.group()).isEqualTo("research-vision");
    assertThat(pod.problem()).isEmpty();
    assertThat(pod.unbound())
        .hasValueSatisfying(reason -> assertThat(reason).contains("parent group research"));
    assertThat(state.group("research-vision").orElseThrow().used().get(GPU)).isEqualTo(4);
    assertThat(state.unboundPods()).isEqualTo(1);
  }

  @Test
  void aParentLabelIsHonouredWhereParentGroupsMayOwnPods() {
    final ClusterQuotaState state = vision(QuotaOptions.DEFAULTS.withParentPods(true));
    state.putPod(gpuPod("own", "research"));

    final PodAssignment pod = onlyPod(state.recompute());

    assertThat(pod.group()).isEqualTo("research");
    assertThat(pod.unbound()).isEmpty();
    assertThat(state.unboundPods()).isZero();
  }

  @Test
  void aGroupTurningIntoAParentSendsItsLabelledPodsToTheirNamespacesGroup() {
    final ClusterQuotaState state = vision(QuotaOptions.DEFAULTS);
    state.putGroup(
        QuotaGroup.builder("lab")
            .namespace("quotas")
            .selectedNamespaces(List.of("vision"))
            .build());
    state.putPod(gpuPod("p", "lab"));
    assertThat(onlyPod(state.recompute()).group()).isEqualTo("lab");

    state.putGroup(
        QuotaGroup.builder("lab")
            .namespace("quotas")
            .selectedNamespaces(List.of("vision"))
            .parentGroup(true)
            .build());
    final PodAssignment moved = onlyPod(state.recompute());

    assertThat(moved.group()).isEqualTo("research-vision");
    assertThat(moved.unbound()).hasValueSatisfying(r -> assertThat(r).contains("parent group lab"));
  }

  @Test
  void theWebhooksRequestDeniesARootOrParentLabelAsNotALeafNamingTheLabel() {
    final GroupDirectory directory = new GroupDirectory(QuotaOptions.DEFAULTS);
    directory.put(
        QuotaGroup.builder("research")
            .namespace("quotas")
            .selectedNamespaces(List.of("vision"))
            .parentGroup(true)
            .build());
    directory.put(
        QuotaGroup.builder("research-vision")
            .namespace("quotas")
            .parent("research")
            .namespaces(List.of("vision"))
            .build());

    final io.quotaflow.rules.AdmissionRequest root =
        io.quotaflow.rules.AdmissionRequest.of(
            gpuPod("r", SpecialGroups.ROOT), directory, QuotaOptions.DEFAULTS);
    final io.quotaflow.rules.AdmissionRequest parent =
        io.quotaflow.rules.AdmissionRequest.of(
            gpuPod("p", "research"), directory, QuotaOptions.DEFAULTS);

    assertThat(root.group()).isEqualTo(SpecialGroups.ROOT);
    assertThat(root.problem()).hasValueSatisfying(r -> assertThat(r).contains("root group"));
    assertThat(root.problemCheck()).isEqualTo(io.quotaflow.rules.Denial.Check.NOT_A_LEAF);
    assertThat(parent.group()).isEqualTo("research");
    assertThat(parent.problemCheck()).isEqualTo(io.quotaflow.rules.Denial.Check.NOT_A_LEAF);
  }

  private static PodAssignment onlyPod(TreeDelta delta) {
    assertThat(delta.changedPods()).hasSize(1);
    return delta.changedPods().get(0);
  }
}
