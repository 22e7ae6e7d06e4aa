package io.quotaflow.bench.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.bench.cluster.ClusterShape;
import io.quotaflow.bench.cluster.Dimensions;
import io.quotaflow.bench.cluster.SyntheticCluster;
import io.quotaflow.bench.cluster.SyntheticClusterGenerator;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaCalculator;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.TreeSnapshot;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SnapshotCheckTest {

  private static final SyntheticCluster CLUSTER =
      SyntheticClusterGenerator.generate(ClusterShape.of(300));
  private static final TreeSnapshot SNAPSHOT =
      QuotaCalculator.compute(CLUSTER.inputs(), QuotaOptions.DEFAULTS);

  @Test
  void theCoresResultForAGeneratedClusterIsSane() {
    assertThat(SnapshotCheck.violations(SNAPSHOT, CLUSTER)).isEmpty();
  }

  @Test
  void theCoresResultIsSaneAtTheBenchmarkedSizes() {
    for (final int size : List.of(100, 10_000)) {
      final SyntheticCluster cluster = SyntheticClusterGenerator.generate(ClusterShape.of(size));

      final TreeSnapshot snapshot =
          QuotaCalculator.compute(cluster.inputs(), QuotaOptions.DEFAULTS);

      assertThat(SnapshotCheck.violations(snapshot, cluster)).as("%d groups", size).isEmpty();
    }
  }

  @Test
  void aGroupGivenMoreThanItsParentHoldsIsCaught() {
    final TreeSnapshot tampered = withLastGroupCpuRuntime(SNAPSHOT, 1_000_000_000L);

    assertThat(SnapshotCheck.violations(tampered, CLUSTER))
        .anySatisfy(violation -> assertThat(violation).contains("hands out"));
  }

  @Test
  void aMissingGroupIsCaught() {
    final List<GroupStatus> groups = new ArrayList<>(SNAPSHOT.groups());
    groups.remove(groups.size() - 1);
    final TreeSnapshot truncated = new TreeSnapshot(SNAPSHOT.total(), groups, SNAPSHOT.pods());

    assertThat(SnapshotCheck.violations(truncated, CLUSTER))
        .anySatisfy(violation -> assertThat(violation).startsWith("missing group"));
  }

  private static TreeSnapshot withLastGroupCpuRuntime(TreeSnapshot snapshot, long cpu) {
    final List<GroupStatus> groups = new ArrayList<>(snapshot.groups());
    final GroupStatus s = groups.get(groups.size() - 1);
    groups.set(
        groups.size() - 1,
        new GroupStatus(
            s.name(),
            s.parent(),
            s.parentGroup(),
            s.valid(),
            s.reason(),
            s.min(),
            s.scaledMin(),
            s.max(),
            s.sharedWeight(),
            s.request(),
            s.limitedRequest(),
            s.used(),
            s.nonPreemptibleRequest(),
            s.nonPreemptibleUsed(),
            s.runtime().with(Dimensions.CPU, cpu)));
    return new TreeSnapshot(snapshot.total(), groups, snapshot.pods());
  }
}
