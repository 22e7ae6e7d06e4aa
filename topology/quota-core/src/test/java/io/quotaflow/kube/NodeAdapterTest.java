package io.quotaflow.kube;

import static io.quotaflow.kube.PodAdapterTest.quantities;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import org.junit.jupiter.api.Test;

class NodeAdapterTest {

  private static final long GI = 1L << 30;

  @Test
  void readsAllocatableInCanonicalUnits() {
    final QuotaNode node =
        NodeAdapter.toQuotaNode(
            node("gpu-1")
                .withNewStatus()
                .withAllocatable(
                    quantities("cpu", "31850m", "memory", "125Gi", "nvidia.com/gpu", "4"))
                .addToConditions(condition("Ready", "True"))
                .endStatus()
                .build());

    assertThat(node.name()).isEqualTo("gpu-1");
    assertThat(node.allocatable())
        .isEqualTo(ResourceList.of("cpu", 31_850, "memory", 125 * GI, "nvidia.com/gpu", 4));
    assertThat(node.ready()).isTrue();
    assertThat(node.schedulable()).isTrue();
    assertThat(node.deleting()).isFalse();
    assertThat(node.problems()).isEmpty();
  }

  @Test
  void aNodeIsReadyOnlyWhenItsReadyConditionIsTrue() {
    assertThat(withConditions(condition("Ready", "False")).ready()).isFalse();
    assertThat(withConditions(condition("Ready", "Unknown")).ready()).isFalse();
    assertThat(withConditions(condition("MemoryPressure", "True")).ready()).isFalse();
    assertThat(NodeAdapter.toQuotaNode(node("n").build()).ready()).isFalse();
    assertThat(
            withConditions(condition("MemoryPressure", "False"), condition("Ready", "True"))
                .ready())
        .isTrue();
  }

  @Test
  void aCordonedNodeIsNotSchedulable() {
    final QuotaNode node =
        NodeAdapter.toQuotaNode(node("n").withNewSpec().withUnschedulable(true).endSpec().build());

    assertThat(node.schedulable()).isFalse();
  }

  @Test
  void aNodeWithADeletionTimestampIsBeingDeleted() {
    final QuotaNode node =
        NodeAdapter.toQuotaNode(
            new NodeBuilder()
                .withNewMetadata()
                .withName("n")
                .withDeletionTimestamp("2024-05-01T10:00:00Z")
                .endMetadata()
                .build());

    assertThat(node.deleting()).isTrue();
  }

  @Test
  void anUnreadableAllocatableQuantityIsAProblemAndItsDimensionIsLeftOut() {
    final QuotaNode node =
        NodeAdapter.toQuotaNode(
            node("n")
                .withNewStatus()
                .withAllocatable(quantities("cpu", "32", "memory", "lots"))
                .endStatus()
                .build());

    assertThat(node.allocatable()).isEqualTo(ResourceList.of("cpu", 32_000));
    assertThat(node.problems())
        .extracting(SpecProblem::field)
        .containsExactly("status.allocatable[memory]");
  }

  @Test
  void aNodeWithoutANameIsAProblem() {
    assertThat(NodeAdapter.toQuotaNode(new NodeBuilder().build()).problems())
        .extracting(SpecProblem::field)
        .containsExactly("metadata.name");
  }

  private static NodeBuilder node(String name) {
    return new NodeBuilder().withNewMetadata().withName(name).endMetadata();
  }

  private static QuotaNode withConditions(NodeCondition... conditions) {
    return NodeAdapter.toQuotaNode(
        node("n").withNewStatus().withConditions(conditions).endStatus().build());
  }

  private static NodeCondition condition(String type, String status) {
    return new NodeConditionBuilder().withType(type).withStatus(status).build();
  }
}
