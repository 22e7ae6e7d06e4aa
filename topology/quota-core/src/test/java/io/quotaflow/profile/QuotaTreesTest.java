package io.quotaflow.profile;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.profile.MultiTreeCalculator.TreeResult;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaCalculator;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.TreeSnapshot;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which tree each input goes to, the trees' totals, and bad profiles (semantics section 15). */
class QuotaTreesTest {

  private static final String POOL = "pool";
  private static final String GPU = "nvidia.com/gpu";

  private static QuotaNode node(String name, String pool, long cpu, long gpus) {
    return new QuotaNode(
        name,
        ResourceList.of("cpu", cpu, GPU, gpus),
        true,
        true,
        false,
        List.of(),
        Map.of(POOL, pool));
  }

  private static QuotaProfile gpuPool(String ratio) {
    return QuotaProfile.of(
        "gpu-pool",
        "gpu-root",
        new ResourceRatio(new BigDecimal(ratio)),
        new NodeSelector(Map.of(POOL, "gpu"), List.of()));
  }

  private static QuotaGroup child(String name, String parent, long minGpus, long maxGpus) {
    return QuotaGroup.builder(name)
        .parent(parent)
        .min(ResourceList.of(GPU, minGpus))
        .max(ResourceList.of(GPU, maxGpus))
        .build();
  }

  private static QuotaPod pod(String group, String name, long gpus) {
    return QuotaPod.builder(group, name).request(ResourceList.of(GPU, gpus)).build();
  }

  private static final List<QuotaNode> NODES =
      List.of(
          node("gpu-1", "gpu", 32_000, 4),
          node("gpu-2", "gpu", 32_000, 4),
          node("cpu-1", "cpu", 16_000, 0));

  private static List<TreeResult> compute(List<QuotaGroup> groups, List<QuotaProfile> profiles) {
    return compute(groups, List.of(), NODES, profiles);
  }

  private static List<TreeResult> compute(
      List<QuotaGroup> groups,
      List<QuotaPod> pods,
      List<QuotaNode> nodes,
      List<QuotaProfile> profiles) {
    return MultiTreeCalculator.compute(
        new ClusterInputs(groups, pods, nodes), profiles, QuotaOptions.DEFAULTS);
  }

  private static GroupStatus status(List<TreeResult> trees, String group) {
    for (final TreeResult tree : trees) {
      for (final GroupStatus status : tree.snapshot().groups()) {
        if (status.name().equals(group)) {
          return status;
        }
      }
    }
    throw new AssertionError("no group " + group);
  }

  private static String treeOf(List<TreeResult> trees, String group) {
    for (final TreeResult tree : trees) {
      if (tree.snapshot().group(group).isPresent()) {
        return tree.tree();
      }
    }
    throw new AssertionError("no group " + group);
  }

  @Test
  void withoutProfilesTheOneTreeIsTheClassicComputation() {
    final List<QuotaGroup> groups = List.of(child("a", SpecialGroups.ROOT, 2, 8));
    final List<QuotaPod> pods = List.of(pod("a", "p", 3));
    final ClusterInputs inputs = new ClusterInputs(groups, pods, NODES);
    final List<TreeResult> trees =
        MultiTreeCalculator.compute(inputs, List.of(), QuotaOptions.DEFAULTS);
    assertThat(trees).hasSize(1);
    assertThat(trees.get(0).tree()).isEqualTo(QuotaTrees.DEFAULT_TREE);
    assertThat(trees.get(0).snapshot())
        .isEqualTo(QuotaCalculator.compute(inputs, QuotaOptions.DEFAULTS));
  }

  @Test
  void theTreeTotalIsTheSelectedNodesAllocatableTimesTheRatioRoundedDown() {
    // 8 GPUs x 0.9 = 7.2 -> 7; 64 cores x 0.9 = 57.6 cores = 57600m exactly.
    final List<TreeResult> trees = compute(List.of(), List.of(gpuPool("0.9")));
    final GroupStatus root = status(trees, "gpu-root");
    assertThat(root.runtime()).isEqualTo(ResourceList.of("cpu", 57_600, GPU, 7));
    assertThat(root.valid()).isTrue();
    assertThat(root.parentGroup()).isTrue();
  }

  @Test
  void milliCoresAreRoundedDownToTheMilliCore() {
    // 64000m x 0.333 = 21312m exactly; 8 x 0.333 = 2.664 -> 2.
    assertThat(status(compute(List.of(), List.of(gpuPool("0.333"))), "gpu-root").runtime())
        .isEqualTo(ResourceList.of("cpu", 21_312, GPU, 2));
  }

  @Test
  void aTotalBeyondTheRangeOfALongSaturatesAndComesBackWhenTheNodeGoes() {
    final QuotaTrees router = new QuotaTrees(QuotaOptions.DEFAULTS);
    router.putProfile(gpuPool("1"));
    router.putNode(node("gpu-1", "gpu", 32_000, 4));
    router.putNode(node("gpu-2", "gpu", Long.MAX_VALUE - 10, 4));
    assertThat(router.inputs("gpu-pool").groups().get(0).min())
        .isEqualTo(ResourceList.of("cpu", Long.MAX_VALUE, GPU, 8));

    router.removeNode("gpu-2");
    assertThat(router.inputs("gpu-pool").groups().get(0).min())
        .isEqualTo(ResourceList.of("cpu", 32_000, GPU, 4));
  }

  @Test
  void onlyReadyNodesNotBeingDeletedCount() {
    final List<QuotaNode> nodes = new ArrayList<>(NODES);
    nodes.set(
        1,
        new QuotaNode(
            "gpu-2",
            ResourceList.of("cpu", 32_000, GPU, 4),
            false,
            true,
            false,
            List.of(),
            Map.of(POOL, "gpu")));
    final List<TreeResult> trees = compute(List.of(), List.of(), nodes, List.of(gpuPool("1")));
    assertThat(status(trees, "gpu-root").runtime())
        .isEqualTo(ResourceList.of("cpu", 32_000, GPU, 4));
  }

  @Test
  void childrenShareTheirTreesTotalOnly() {
    // GPU tree: 8 GPUs. a (min 2) asks 7 and b (min 2) asks 1: a gets 2 + (8 - 2 - 1) = 7.
    // The default tree's c asks 7 of its own max 8 and is not limited by the GPU tree.
    final List<QuotaGroup> groups =
        List.of(
            child("a", "gpu-root", 2, 8),
            child("b", "gpu-root", 2, 8),
            child("c", SpecialGroups.ROOT, 0, 8));
    final List<QuotaPod> pods = List.of(pod("a", "a-1", 7), pod("b", "b-1", 1), pod("c", "c-1", 7));
    final List<TreeResult> trees = compute(groups, pods, NODES, List.of(gpuPool("1")));
    assertThat(treeOf(trees, "a")).isEqualTo("gpu-pool");
    assertThat(treeOf(trees, "c")).isEqualTo(QuotaTrees.DEFAULT_TREE);
    assertThat(status(trees, "a").runtime().get(GPU)).isEqualTo(7);
    assertThat(status(trees, "b").runtime().get(GPU)).isEqualTo(1);
    assertThat(status(trees, "c").runtime().get(GPU)).isEqualTo(7);
  }

  @Test
  void aGroupWithoutTreeIdIsInItsParentsTree() {
    final List<QuotaGroup> groups =
        List.of(
            child("dept", "gpu-root", 0, 8).toBuilder().parentGroup(true).build(),
            child("team", "dept", 0, 8));
    assertThat(treeOf(compute(groups, List.of(gpuPool("1"))), "team")).isEqualTo("gpu-pool");
  }

  @Test
  void aPodIsInTheTreeOfItsGroup() {
    final QuotaTrees trees = new QuotaTrees(QuotaOptions.DEFAULTS);
    trees.putProfile(gpuPool("1"));
    NODES.forEach(trees::putNode);
    trees.putGroup(child("a", "gpu-root", 0, 8));
    trees.putPod(pod("a", "p", 1));
    trees.putPod(pod("elsewhere", "q", 1));
    assertThat(trees.treeOfPod(pod("a", "p", 1).ref())).contains("gpu-pool");
    assertThat(trees.treeOfPod(pod("elsewhere", "q", 1).ref())).contains(QuotaTrees.DEFAULT_TREE);
  }

  @Test
  void aChangeInOneTreeTouchesOnlyThatTree() {
    final QuotaTrees trees = new QuotaTrees(QuotaOptions.DEFAULTS);
    trees.putProfile(gpuPool("1"));
    NODES.forEach(trees::putNode);
    trees.putGroup(child("a", "gpu-root", 0, 8));
    trees.putGroup(child("c", SpecialGroups.ROOT, 0, 8));
    assertThat(trees.putPod(pod("a", "p", 1))).extracting(TreeOp::tree).containsOnly("gpu-pool");
    assertThat(trees.putGroup(child("c", SpecialGroups.ROOT, 1, 8)))
        .extracting(TreeOp::tree)
        .containsOnly(QuotaTrees.DEFAULT_TREE);
  }

  @Test
  void aRatioOutsideZeroToOneMakesTheRootInvalidAndLeavesTheOtherTreesAlone() {
    for (final String ratio : List.of("0", "1.5", "-0.2")) {
      final List<QuotaGroup> groups =
          List.of(child("a", "gpu-root", 2, 8), child("c", SpecialGroups.ROOT, 0, 8));
      final List<TreeResult> trees = compute(groups, List.of(gpuPool(ratio)));
      final GroupStatus root = status(trees, "gpu-root");
      assertThat(root.valid()).as(ratio).isFalse();
      assertThat(root.reason().orElseThrow())
          .contains("ElasticQuotaProfile gpu-pool spec.resourceRatio")
          .contains(ratio + " is outside (0, 1]");
      assertThat(status(trees, "a").valid()).isFalse();
      assertThat(status(trees, "c").valid()).isTrue();
      assertThat(status(trees, "c").runtime().get(GPU)).isEqualTo(0);
    }
  }

  @Test
  void aSelectorMatchingNoNodeIsReportedOnTheRoot() {
    final QuotaProfile nowhere =
        QuotaProfile.of(
            "tpu-pool",
            "tpu-root",
            ResourceRatio.ONE,
            new NodeSelector(Map.of(POOL, "tpu"), List.of()));
    final GroupStatus root = status(compute(List.of(), List.of(nowhere)), "tpu-root");
    assertThat(root.valid()).isFalse();
    assertThat(root.reason().orElseThrow())
        .contains("ElasticQuotaProfile tpu-pool spec.nodeSelector: matches no node");
  }

  @Test
  void aTreeIdNamingNoProfileIsReportedOnTheGroupInTheDefaultTree() {
    final QuotaGroup lost =
        child("lost", SpecialGroups.ROOT, 0, 8).toBuilder().treeId("tpu").build();
    final List<TreeResult> trees =
        compute(List.of(lost, child("c", SpecialGroups.ROOT, 0, 8)), List.of(gpuPool("1")));
    assertThat(treeOf(trees, "lost")).isEqualTo(QuotaTrees.DEFAULT_TREE);
    assertThat(status(trees, "lost").valid()).isFalse();
    assertThat(status(trees, "lost").reason().orElseThrow())
        .contains("quota.scheduling.koordinator.sh/tree-id")
        .contains("tpu names no ElasticQuotaProfile (trees: gpu-pool)");
    assertThat(status(trees, "c").valid()).isTrue();
  }

  @Test
  void aTreeIdThatDiffersFromTheParentsTreeIsReported() {
    final QuotaGroup stray =
        child("stray", SpecialGroups.ROOT, 0, 8).toBuilder().treeId("gpu-pool").build();
    final GroupStatus status = status(compute(List.of(stray), List.of(gpuPool("1"))), "stray");
    assertThat(status.valid()).isFalse();
    assertThat(status.reason().orElseThrow())
        .contains("tree gpu-pool, but its parent koordinator-root-quota is in tree default");
  }

  @Test
  void aSecondProfileWithTheSameRootHeadsNoTree() {
    final QuotaProfile twin =
        QuotaProfile.of("gpu-pool-2", "gpu-root", ResourceRatio.ONE, NodeSelector.everything());
    final QuotaTrees trees =
        QuotaTrees.of(
            new ClusterInputs(List.of(), List.of(), NODES),
            List.of(gpuPool("1"), twin),
            QuotaOptions.DEFAULTS);
    assertThat(trees.trees()).containsExactly(QuotaTrees.DEFAULT_TREE, "gpu-pool");
    assertThat(trees.rejectedProfiles().get("gpu-pool-2"))
        .isEqualTo(
            "spec.quotaName gpu-root is already the root of tree gpu-pool (profile gpu-pool)");
  }

  @Test
  void anUnreadableProfileFieldMakesTheRootInvalid() {
    final QuotaProfile broken =
        new QuotaProfile(
            "gpu-pool",
            "gpu-pool",
            "gpu-root",
            Map.of(),
            ResourceRatio.ONE,
            new NodeSelector(Map.of(POOL, "gpu"), List.of()),
            List.of(new SpecProblem("spec.resourceRatio", "\"lots\" is not a number")));
    final GroupStatus root = status(compute(List.of(), List.of(broken)), "gpu-root");
    assertThat(root.valid()).isFalse();
    assertThat(root.reason().orElseThrow()).contains("\"lots\" is not a number");
  }

  @Test
  void aProfileTreeReportsNeitherTheVirtualRootNorTheSpecialGroups() {
    final TreeSnapshot gpu = compute(List.of(), List.of(gpuPool("1"))).get(1).snapshot();
    assertThat(gpu.groups()).extracting(GroupStatus::name).containsExactly("gpu-root");
  }
}
