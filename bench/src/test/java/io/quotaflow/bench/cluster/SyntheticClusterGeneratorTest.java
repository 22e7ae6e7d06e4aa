package io.quotaflow.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.SpecialGroups;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SyntheticClusterGeneratorTest {

  private static final SyntheticCluster CLUSTER =
      SyntheticClusterGenerator.generate(ClusterShape.of(2_000));

  @Test
  void theSameShapeAlwaysGivesTheSameCluster() {
    final SyntheticCluster again = SyntheticClusterGenerator.generate(ClusterShape.of(2_000));

    assertThat(again.inputs()).isEqualTo(CLUSTER.inputs());
  }

  @Test
  void anotherSeedGivesAnotherCluster() {
    final SyntheticCluster other = SyntheticClusterGenerator.generate(new ClusterShape(2_000, 7L));

    assertThat(other.inputs().groups()).isNotEqualTo(CLUSTER.inputs().groups());
  }

  @Test
  void hasExactlyTheRequestedGroupsFourLevelsDeep() {
    for (final int size : List.of(100, 10_000)) {
      final List<QuotaGroup> groups =
          SyntheticClusterGenerator.generate(ClusterShape.of(size)).inputs().groups();
      final Map<String, QuotaGroup> byName = byName(groups);

      assertThat(groups).hasSize(size);
      assertThat(groups)
          .allSatisfy(group -> assertThat(depth(group, byName)).isBetween(1, ClusterShape.DEPTH));
      assertThat(groups)
          .filteredOn(group -> !group.parentGroup())
          .allSatisfy(leaf -> assertThat(depth(leaf, byName)).isEqualTo(ClusterShape.DEPTH));
    }
  }

  @Test
  void levelsWidenDownTheTreeWithAboutTheSameFanOut() {
    for (final int size : List.of(100, 10_000, 100_000)) {
      final int[] levels = ClusterShape.of(size).levelSizes();

      assertThat(Arrays.stream(levels).sum()).isEqualTo(size);
      for (int level = 1; level < levels.length; level++) {
        final double fanOut = (double) levels[level] / levels[level - 1];
        assertThat(fanOut).as("%d groups, level %d", size, level).isGreaterThan(2.0);
        assertThat(fanOut).isCloseTo(levels[0], within(levels[0] * 0.2 + 0.5));
      }
    }
  }

  @Test
  void belowTheFirstLevelChildrenMinsFitInTheParentMin() {
    final Map<String, List<QuotaGroup>> children =
        CLUSTER.inputs().groups().stream().collect(Collectors.groupingBy(QuotaGroup::parent));
    for (final QuotaGroup parent : CLUSTER.inputs().groups()) {
      for (final String dimension : Dimensions.ALL) {
        final long sum =
            children.getOrDefault(parent.name(), List.of()).stream()
                .mapToLong(child -> child.min().get(dimension))
                .sum();
        assertThat(sum)
            .as("%s %s", parent.name(), dimension)
            .isLessThanOrEqualTo(parent.min().get(dimension));
      }
      children
          .getOrDefault(parent.name(), List.of())
          .forEach(child -> assertThat(parent.min().names()).containsAll(child.min().names()));
    }
  }

  @Test
  void theClusterHoldsTheFirstLevelMinsButLessThanTheLeavesAsk() {
    for (final String dimension : Dimensions.ALL) {
      final long firstLevelMins =
          CLUSTER.inputs().groups().stream()
              .filter(group -> group.parent().equals(SpecialGroups.ROOT))
              .mapToLong(group -> group.min().get(dimension))
              .sum();

      assertThat(CLUSTER.total().get(dimension)).isGreaterThanOrEqualTo(firstLevelMins);
      assertThat(CLUSTER.total().get(dimension)).isLessThan(CLUSTER.leafDemand().get(dimension));
    }
  }

  @Test
  void mixesLendersBorrowersNonLendersAndExplicitWeights() {
    final Map<String, Long> cpuRequested =
        CLUSTER.inputs().pods().stream()
            .collect(
                Collectors.groupingBy(
                    pod -> pod.quotaName().orElseThrow(),
                    Collectors.summingLong(pod -> pod.request().get(Dimensions.CPU))));
    final List<QuotaGroup> leaves =
        CLUSTER.inputs().groups().stream().filter(group -> !group.parentGroup()).toList();

    final long idle =
        leaves.stream().filter(leaf -> !cpuRequested.containsKey(leaf.name())).count();
    final long lenders =
        leaves.stream()
            .filter(
                leaf -> cpuRequested.getOrDefault(leaf.name(), 0L) < leaf.min().get(Dimensions.CPU))
            .count();
    final long borrowers =
        leaves.stream()
            .filter(
                leaf -> cpuRequested.getOrDefault(leaf.name(), 0L) > leaf.min().get(Dimensions.CPU))
            .count();
    assertThat(idle).isGreaterThan(leaves.size() / 20);
    assertThat(lenders).isGreaterThan(leaves.size() / 5);
    assertThat(borrowers).isGreaterThan(leaves.size() / 3);
    assertThat(leaves.stream().filter(leaf -> !leaf.allowLent()).count())
        .isGreaterThan(leaves.size() / 10);
    assertThat(leaves.stream().filter(leaf -> leaf.sharedWeight().isPresent()).count())
        .isGreaterThan(leaves.size() / 5);
    assertThat(leaves.stream().filter(leaf -> leaf.min().contains(Dimensions.GPU)).count())
        .isBetween((long) leaves.size() / 5, (long) leaves.size() / 3);
  }

  @Test
  void podRequestsVaryAndOnlyGpuLeavesAskForGpus() {
    final Map<String, QuotaGroup> groups = byName(CLUSTER.inputs().groups());
    final List<QuotaPod> pods = CLUSTER.inputs().pods();

    assertThat(pods.stream().map(pod -> pod.request().get(Dimensions.CPU)).distinct().count())
        .isGreaterThan(100);
    assertThat(pods)
        .filteredOn(pod -> pod.request().contains(Dimensions.GPU))
        .allSatisfy(
            pod ->
                assertThat(groups.get(pod.quotaName().orElseThrow()).min().names())
                    .contains(Dimensions.GPU));
    assertThat(pods.stream().filter(QuotaPod::isBound).count())
        .isBetween(pods.size() / 2L, pods.size() * 9L / 10);
  }

  private static Map<String, QuotaGroup> byName(List<QuotaGroup> groups) {
    return groups.stream().collect(Collectors.toMap(QuotaGroup::name, Function.identity()));
  }

  private static int depth(QuotaGroup group, Map<String, QuotaGroup> byName) {
    int depth = 1;
    QuotaGroup current = group;
    while (!current.parent().equals(SpecialGroups.ROOT)) {
      current = byName.get(current.parent());
      depth++;
    }
    return depth;
  }
}
