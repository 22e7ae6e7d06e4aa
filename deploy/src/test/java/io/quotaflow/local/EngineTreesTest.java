package io.quotaflow.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.profile.NodeSelector;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.profile.ResourceRatio;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.simulate.TableReport;
import io.quotaflow.simulate.TreeReport;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.TreeSnapshot;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** local's table of a cluster with ElasticQuotaProfiles: one heading per tree, as simulate's. */
class EngineTreesTest {

  private static final QuotaProfile GPU_POOL =
      QuotaProfile.of(
          "gpu-pool",
          "gpu-root",
          new ResourceRatio(new BigDecimal("0.5")),
          new NodeSelector(Map.of("pool", "gpu"), List.of()));

  private static final List<QuotaNode> NODES =
      List.of(
          node("gpu-1", Map.of("pool", "gpu"), ResourceList.of("cpu", 32_000, "nvidia.com/gpu", 4)),
          node("gpu-2", Map.of("pool", "gpu"), ResourceList.of("cpu", 32_000, "nvidia.com/gpu", 4)),
          node("cpu-1", Map.of("pool", "cpu"), ResourceList.of("cpu", 16_000)));

  /** The engine's groups of the cluster in tree order, as EngineTree reads them. */
  private static final TreeSnapshot WHOLE =
      new TreeSnapshot(
          ResourceList.of("cpu", 80_000, "nvidia.com/gpu", 8),
          List.of(
              group("koordinator-root-quota", ""),
              group("gpu-root", "koordinator-root-quota"),
              group("vision", "gpu-root"),
              group("team-x", "koordinator-root-quota")),
          List.of(pod("vision", "v-1"), pod("team-x", "x-1")));

  @Test
  void eachTreeHasItsHeadingTotalGroupsAndPodsDefaultFirst() {
    final List<TreeReport> trees =
        EngineTrees.split(
            WHOLE,
            Map.of("gpu-root", "gpu-pool", "vision", "gpu-pool"),
            NODES,
            List.of(GPU_POOL),
            Map.of(),
            QuotaOptions.DEFAULTS);

    assertThat(trees).extracting(tree -> tree.tree().tree()).containsExactly("default", "gpu-pool");
    assertThat(trees.get(0).tree().snapshot().groups())
        .extracting(GroupStatus::name)
        .containsExactly("koordinator-root-quota", "team-x");
    assertThat(trees.get(0).tree().snapshot().total()).isEqualTo(WHOLE.total());
    assertThat(trees.get(1).tree().snapshot().groups())
        .extracting(GroupStatus::name)
        .containsExactly("gpu-root", "vision");
    assertThat(trees.get(1).tree().snapshot().total())
        .as("the pool's two nodes times 0.5")
        .isEqualTo(ResourceList.of("cpu", 32_000, "nvidia.com/gpu", 4));
    assertThat(trees.get(1).tree().snapshot().pods())
        .extracting(PodAssignment::ref)
        .containsExactly(new PodRef("vision", "v-1"));

    final String table = TableReport.render(trees);
    assertThat(table)
        .contains("=== Tree default: the groups outside every profile's tree, all nodes")
        .contains(
            "=== Tree gpu-pool: ElasticQuotaProfile gpu-pool, root gpu-root, resourceRatio 0.5,"
                + " 2 Ready nodes")
        .contains("Tree total: cpu 32, nvidia.com/gpu 4");
    assertThat(table.indexOf("team-x"))
        .as("team-x is listed in the default tree, before the gpu-pool heading")
        .isLessThan(table.indexOf("=== Tree gpu-pool"));
    assertThat(table.indexOf("vision")).isGreaterThan(table.indexOf("=== Tree gpu-pool"));
  }

  @Test
  void aGroupOfATreeWithoutAnAcceptedProfileShowsInTheDefaultTree() {
    final List<TreeReport> trees =
        EngineTrees.split(
            WHOLE,
            Map.of("gpu-root", "gpu-pool", "vision", "gpu-pool", "team-x", "gone-pool"),
            NODES,
            List.of(GPU_POOL),
            Map.of(),
            QuotaOptions.DEFAULTS);

    assertThat(trees.get(0).tree().snapshot().groups())
        .extracting(GroupStatus::name)
        .contains("team-x");
  }

  private static QuotaNode node(
      final String name, final Map<String, String> labels, final ResourceList allocatable) {
    return new QuotaNode(name, allocatable, true, true, false, List.of(), labels);
  }

  private static PodAssignment pod(final String group, final String name) {
    return new PodAssignment(new PodRef(group, name), group, Optional.empty(), Optional.empty());
  }

  private static GroupStatus group(final String name, final String parent) {
    final ResourceList none = ResourceList.empty();
    return new GroupStatus(
        name,
        parent,
        false,
        true,
        Optional.empty(),
        none,
        none,
        none,
        none,
        none,
        none,
        none,
        none,
        none,
        none);
  }
}
