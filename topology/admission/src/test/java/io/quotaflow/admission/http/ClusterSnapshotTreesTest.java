package io.quotaflow.admission.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.admission.state.ClusterSnapshot;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.tree.Fixtures;
import io.quotaflow.tree.QuotaOptions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A last state copied from a cluster with quota trees per node pool keeps its trees: an answer from
 * it (a rebalance, the web view) still judges a pod against its own tree and node pool.
 */
class ClusterSnapshotTreesTest {

  private static final Instant NOW = Instant.parse("2026-11-26T03:00:00Z");

  @Test
  void theCopyKeepsEachGroupsTreeTheProfilesAndTheNodeLabels() {
    final ClusterView live =
        QuotaTreesAdmissionTest.state().cluster(TestClusters.EAST).orElseThrow();

    final ClusterSnapshot copy = ClusterSnapshot.capture(live, NOW);

    assertThat(copy.treeProfiles()).isEqualTo(live.treeProfiles()).hasSize(2);
    assertThat(copy.treeOf("web")).isEqualTo("cpu-pool");
    assertThat(copy.treeOf("vision")).isEqualTo("gpu-pool");
    assertThat(copy.treeOf("legacy")).isEqualTo("default");
    assertThat(copy.headsTree("cpu-root")).isTrue();
    assertThat(copy.nodeLabels("gpu-1")).contains(Map.of("pool", "gpu"));
    assertThat(copy.nodePools().refusal("web", "cpu-pool", "gpu-1", copy.nodeLabels("gpu-1")))
        .hasValueSatisfying(reason -> assertThat(reason).contains("outside the node pool"));
    assertThat(copy.nodePools().refusal("web", "cpu-pool", "cpu-1", copy.nodeLabels("cpu-1")))
        .isEmpty();
  }

  @Test
  void aClusterWithoutProfilesCopiesNoTrees() {
    final ClusterView live =
        new SnapshotClusterState()
            .put(
                TestClusters.EAST,
                Fixtures.cluster()
                    .node(
                        new QuotaNode(
                            "gpu-1",
                            Fixtures.cpu(8_000),
                            true,
                            true,
                            false,
                            List.of(),
                            Map.of("pool", "gpu")))
                    .group(Fixtures.quota("web"))
                    .inputs(),
                QuotaOptions.DEFAULTS)
            .cluster(TestClusters.EAST)
            .orElseThrow();

    final ClusterSnapshot copy = ClusterSnapshot.capture(live, NOW);

    assertThat(copy.treeProfiles()).isEmpty();
    assertThat(copy.treeOf("web")).isEqualTo("default");
    assertThat(copy.nodeLabels("gpu-1")).isEqualTo(Optional.empty());
  }
}
