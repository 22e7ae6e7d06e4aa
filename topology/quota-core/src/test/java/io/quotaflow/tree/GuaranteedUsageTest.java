package io.quotaflow.tree;

import static io.quotaflow.tree.Fixtures.cluster;
import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.parentQuota;
import static io.quotaflow.tree.Fixtures.pod;
import static io.quotaflow.tree.Fixtures.quota;
import static io.quotaflow.tree.Fixtures.runtime;
import static io.quotaflow.tree.Fixtures.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.ResourceList;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/semantics.md section 17: Koordinator's ElasticQuotaGuaranteeUsage. A group's guaranteed
 * amount is {@code max(min, own used + Σ children's guaranteed)}, no group lends, and each group
 * starts its share at {@code max(scaled min, guaranteed)}. Worked examples, with the switch on and,
 * for contrast, off.
 */
class GuaranteedUsageTest {

  private static final QuotaOptions ON = QuotaOptions.DEFAULTS.withGuaranteeUsage(true);
  private static final String CPU = ResourceList.CPU;

  /**
   * Total 100. a: min 20, runs 50. b: min 30, asks 80 (pending). c: min 10, asks nothing.
   * Guaranteed a 50, b 30, c 10; everyone asks at least its min. a starts at 50 and keeps it, b at
   * 30, c at 10 (it lends nothing); b borrows the 10 left: 40.
   */
  private static Fixtures.ClusterBuilder flat() {
    return cluster()
        .total(cpu(100))
        .group(quota("a").min(cpu(20)).max(cpu(100)))
        .group(quota("b").min(cpu(30)).max(cpu(100)))
        .group(quota("c").min(cpu(10)).max(cpu(100)))
        .holding("a", cpu(50))
        .demand("b", cpu(80));
  }

  @Test
  void aGroupKeepsWhatItHasAllocatedAndNobodyLendsItsMin() {
    final TreeSnapshot snapshot = flat().options(ON).compute();

    assertThat(status(snapshot, "a").guaranteed()).isEqualTo(cpu(50));
    assertThat(status(snapshot, "b").guaranteed()).isEqualTo(cpu(30));
    assertThat(status(snapshot, "c").guaranteed()).isEqualTo(cpu(10));
    assertThat(status(snapshot, "c").request()).isEqualTo(cpu(10));
    assertThat(runtime(snapshot, "a", CPU)).isEqualTo(50);
    assertThat(runtime(snapshot, "b", CPU)).isEqualTo(40);
    assertThat(runtime(snapshot, "c", CPU)).isEqualTo(10);
  }

  @Test
  void withoutTheSwitchTheSameGroupsShareByWeightAndReportNoGuarantee() {
    // a and b borrow from 20 and 30 with equal weights (their max): 25 each of the 50 left.
    final TreeSnapshot snapshot = flat().compute();

    assertThat(runtime(snapshot, "a", CPU)).isEqualTo(45);
    assertThat(runtime(snapshot, "b", CPU)).isEqualTo(55);
    assertThat(runtime(snapshot, "c", CPU)).isZero();
    assertThat(status(snapshot, "a").guaranteed()).isEqualTo(ResourceList.empty());
  }

  /**
   * Total 100. p (parent, min 40) has p1 (min 10, runs 30) and p2 (min 20, runs 5); q (min 30) asks
   * 100. Guaranteed p1 30, p2 20, p max(40, 30 + 20) = 50, q 30. p asks max(30 + 20, 40) = 50 and
   * starts there; q starts at 30 and borrows the 20 left: 50. p gives p1 30 and p2 20.
   */
  private static Fixtures.ClusterBuilder hierarchy() {
    return cluster()
        .total(cpu(100))
        .group(parentQuota("p").min(cpu(40)).max(cpu(100)))
        .group(quota("p1").parent("p").min(cpu(10)).max(cpu(100)))
        .group(quota("p2").parent("p").min(cpu(20)).max(cpu(100)))
        .group(quota("q").min(cpu(30)).max(cpu(100)))
        .holding("p1", cpu(30))
        .holding("p2", cpu(5))
        .demand("q", cpu(100));
  }

  @Test
  void aParentIsGuaranteedItsChildrensGuaranteesAndAtLeastItsMin() {
    final TreeSnapshot snapshot = hierarchy().options(ON).compute();

    assertThat(status(snapshot, "p1").guaranteed()).isEqualTo(cpu(30));
    assertThat(status(snapshot, "p2").guaranteed()).isEqualTo(cpu(20));
    assertThat(status(snapshot, "p").guaranteed()).isEqualTo(cpu(50));
    assertThat(status(snapshot, "q").guaranteed()).isEqualTo(cpu(30));
    assertThat(runtime(snapshot, "p", CPU)).isEqualTo(50);
    assertThat(runtime(snapshot, "q", CPU)).isEqualTo(50);
    assertThat(runtime(snapshot, "p1", CPU)).isEqualTo(30);
    assertThat(runtime(snapshot, "p2", CPU)).isEqualTo(20);
  }

  @Test
  void withoutTheSwitchTheParentLendsWhatItsChildrenDoNotAsk() {
    // p asks 30 + 5 = 35 below its min 40 and lends the rest: q gets 65.
    final TreeSnapshot snapshot = hierarchy().compute();

    assertThat(runtime(snapshot, "p", CPU)).isEqualTo(35);
    assertThat(runtime(snapshot, "q", CPU)).isEqualTo(65);
  }

  @Test
  void theRootAndTheSpecialGroupsHaveNoGuarantee() {
    final TreeSnapshot snapshot = hierarchy().options(ON).compute();

    for (final String special :
        new String[] {
          "koordinator-root-quota", "koordinator-system-quota", "koordinator-default-quota"
        }) {
      assertThat(status(snapshot, special).guaranteed()).isEqualTo(ResourceList.empty());
    }
  }

  @Test
  void guaranteesAreNotScaledSoTheyMaySumAboveWhatTheParentDistributes() {
    // Total 50, mins 40 + 40 scale to 25 + 25, but a guarantee is at least the unscaled min: a
    // runs 45 and keeps it, b starts at its min 40. Together 85 of 50, as in Koordinator.
    final TreeSnapshot snapshot =
        cluster()
            .total(cpu(50))
            .group(quota("a").min(cpu(40)).max(cpu(100)))
            .group(quota("b").min(cpu(40)).max(cpu(100)))
            .holding("a", cpu(45))
            .options(ON)
            .compute();

    assertThat(status(snapshot, "a").scaledMin()).isEqualTo(cpu(25));
    assertThat(runtime(snapshot, "a", CPU)).isEqualTo(45);
    assertThat(runtime(snapshot, "b", CPU)).isEqualTo(40);
  }

  @Test
  void theIncrementalStateFollowsUsedIntoTheGuaranteeAndTheSplit() {
    final ClusterQuotaState state = flat().options(ON).state();

    // a's pod ends: its guarantee falls back to its min 20, and b borrows what a held.
    state.removePod(new io.quotaflow.quota.PodRef("ns-a", "p1"));
    state.recompute();

    final TreeSnapshot snapshot = state.snapshot();
    assertThat(status(snapshot, "a").guaranteed()).isEqualTo(cpu(20));
    assertThat(runtime(snapshot, "a", CPU)).isEqualTo(20);
    assertThat(runtime(snapshot, "b", CPU)).isEqualTo(70);
    assertThat(snapshot).isEqualTo(QuotaCalculator.compute(state.inputs(), ON));
  }

  @Test
  void theWhatIfOfANewPodRunsTheSplitWithTheGuaranteesAsAFullRecomputationDoes() {
    final Fixtures.ClusterBuilder tree = flat().total(cpu(200)).options(ON);
    final TreeSnapshot before = tree.compute();
    final Map<String, ResourceList> whatIf =
        WhatIfRuntimes.compute(
            WhatIfInputs.of(before, tree.inputs().groups(), Map.of("b", cpu(80))),
            "b",
            cpu(10),
            ON);

    final TreeSnapshot after = tree.pod(pod("b", "extra").request(cpu(10))).compute();
    assertThat(whatIf.get("b")).isEqualTo(status(after, "b").runtime());
    assertThat(whatIf.get("b")).isEqualTo(cpu(90));
  }
}
