package io.quotaflow.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The node pool a pod of a profile tree is kept to (semantics section 15). */
class NodePoolsTest {

  private static final QuotaProfile GPU_POOL =
      QuotaProfile.of(
          "gpu-pool",
          "gpu-root",
          new ResourceRatio(BigDecimal.ONE),
          new NodeSelector(Map.of("pool", "gpu"), List.of()));

  private final NodePools pools = new NodePools(Map.of("gpu-pool", GPU_POOL));

  @Test
  void aPodOfAProfileTreeMayRunOnTheNodesItsProfileSelects() {
    assertThat(pools.refusal("vision", "gpu-pool", "gpu-1", Optional.of(Map.of("pool", "gpu"))))
        .isEmpty();
  }

  @Test
  void aNodeOutsideThePoolIsRefusedWithAReasonNamingTheTreeProfileRootAndGroup() {
    assertThat(pools.refusal("vision", "gpu-pool", "cpu-1", Optional.of(Map.of("pool", "cpu"))))
        .contains(
            "quotaflow: outside-pool: node cpu-1 is outside the node pool of quota tree gpu-pool"
                + " (ElasticQuotaProfile gpu-pool, root gpu-root), the tree of quota group"
                + " vision");
  }

  @Test
  void aNodeOfUnknownLabelsIsOutsideAProfilesPoolAndTheReasonSaysWhy() {
    assertThat(pools.refusal("vision", "gpu-pool", "new-node", Optional.empty()))
        .hasValueSatisfying(
            reason -> assertThat(reason).endsWith("(the node's labels are not known)"));
  }

  @Test
  void aPodOfTheDefaultTreeMayRunOnEveryNode() {
    assertThat(
            pools.refusal(
                "web", QuotaTrees.DEFAULT_TREE, "gpu-1", Optional.of(Map.of("pool", "gpu"))))
        .isEmpty();
    assertThat(pools.refusal("web", QuotaTrees.DEFAULT_TREE, "x", Optional.empty())).isEmpty();
  }

  @Test
  void acceptedTreesKeepTheEarlierProfileByNameOfASharedTreeIdAndDropRootlessOnes() {
    final QuotaProfile later =
        new QuotaProfile(
            "later",
            "gpu-pool",
            "other-root",
            Map.of(),
            ResourceRatio.ONE,
            NodeSelector.everything(),
            List.of());
    final QuotaProfile rootless =
        QuotaProfile.of("a", "", ResourceRatio.ONE, NodeSelector.everything());

    assertThat(QuotaTrees.acceptedTrees(List.of(later, rootless, GPU_POOL)))
        .containsExactly(Map.entry("gpu-pool", GPU_POOL));
  }
}
