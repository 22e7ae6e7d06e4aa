package io.quotaflow.tree;

import static io.quotaflow.tree.Fixtures.cluster;
import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.parentQuota;
import static io.quotaflow.tree.Fixtures.pod;
import static io.quotaflow.tree.Fixtures.quota;
import static io.quotaflow.tree.Fixtures.runtime;
import static io.quotaflow.tree.Fixtures.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/semantics.md section 18: Koordinator's SupportParentQuotaSubmitPod. With the switch on a
 * parent group owns the pods that resolve to it; they count in its own request, used and guarantee
 * before its children's limited requests are added, and its children still share its whole runtime.
 * Worked examples, on and off.
 */
class ParentPodsTest {

  private static final QuotaOptions ON = QuotaOptions.DEFAULTS.withParentPods(true);
  private static final String CPU = ResourceList.CPU;

  /**
   * Total 100. p (parent, min 40, max 60) runs a pod of its own holding 30; its child c1 (min 20)
   * asks 50, c2 (min 20) nothing. q (min 20) asks 30. With the switch p asks 30 + 50 = 80, limited
   * to 60: it starts at 40, q at 20, and the 40 left go by weight (max: 60 and 100): p 15, q 25 of
   * which q takes 10; p takes the 15 back and 5 more: p 60, q 30. p gives c1 20 + 30 = 50.
   */
  private static Fixtures.ClusterBuilder tree() {
    return cluster()
        .total(cpu(100))
        .group(parentQuota("p").min(cpu(40)).max(cpu(60)))
        .group(quota("c1").parent("p").min(cpu(20)).max(cpu(100)))
        .group(quota("c2").parent("p").min(cpu(20)).max(cpu(100)))
        .group(quota("q").min(cpu(20)).max(cpu(100)))
        .holding("p", cpu(30))
        .demand("c1", cpu(50))
        .demand("q", cpu(30));
  }

  @Test
  void aParentsOwnPodsCountInItsRequestAndUsedBeforeItsChildren() {
    final TreeSnapshot snapshot = tree().options(ON).compute();

    assertThat(status(snapshot, "p").request()).isEqualTo(cpu(80));
    assertThat(status(snapshot, "p").limitedRequest()).isEqualTo(cpu(60));
    assertThat(status(snapshot, "p").used()).isEqualTo(cpu(30));
    assertThat(runtime(snapshot, "p", CPU)).isEqualTo(60);
    assertThat(runtime(snapshot, "q", CPU)).isEqualTo(30);
    assertThat(runtime(snapshot, "c1", CPU)).isEqualTo(50);
    assertThat(runtime(snapshot, "c2", CPU)).isZero();
    assertThat(snapshot.pods())
        .filteredOn(pod -> pod.group().equals("p"))
        .singleElement()
        .satisfies(pod -> assertThat(pod.problem()).isEmpty());
  }

  @Test
  void withoutTheSwitchAPodLabelledWithAParentIsChargedAsIfUnlabelledWithTheReason() {
    // Issue 39: before, such a pod was charged nowhere (a problem). Its namespace names no group,
    // so it goes to the default group, whose used is carved out of the total: 100 - 30 = 70. p
    // asks only for c1: 50; p starts at 40 and q at 20, and the 10 left go by weight (60 and
    // 100): p 3 and q 6, the last unit to p (the larger remainder): p 44.
    final TreeSnapshot snapshot = tree().compute();

    assertThat(status(snapshot, "p").request()).isEqualTo(cpu(50));
    assertThat(status(snapshot, "p").used()).isEqualTo(cpu(0));
    assertThat(status(snapshot, SpecialGroups.DEFAULT).used()).isEqualTo(cpu(30));
    assertThat(runtime(snapshot, "p", CPU)).isEqualTo(44);
    assertThat(snapshot.pods())
        .filteredOn(pod -> pod.ref().namespace().equals("ns-p"))
        .singleElement()
        .satisfies(
            pod -> {
              assertThat(pod.group()).isEqualTo(SpecialGroups.DEFAULT);
              assertThat(pod.problem()).isEmpty();
              assertThat(pod.unbound())
                  .hasValueSatisfying(reason -> assertThat(reason).contains("parent group p"));
            });
  }

  @Test
  void aParentsOwnPodsCountInItsGuaranteeWhenBothSwitchesAreOn() {
    final TreeSnapshot snapshot = tree().options(ON.withGuaranteeUsage(true)).compute();

    // Own used 30 + c1's guarantee 20 (min; nothing runs) + c2's 20: 70 above p's min 40.
    assertThat(status(snapshot, "p").guaranteed()).isEqualTo(cpu(70));
  }

  @Test
  void theIncrementalStateMovesAPodWhenItsParentGroupMayOwnIt() {
    final ClusterQuotaState state = tree().options(ON).state();

    state.removePod(new PodRef("ns-p", "p1"));
    state.recompute();

    final TreeSnapshot snapshot = state.snapshot();
    assertThat(status(snapshot, "p").request()).isEqualTo(cpu(50));
    assertThat(snapshot).isEqualTo(QuotaCalculator.compute(state.inputs(), ON));
  }

  @Test
  void theWhatIfOfAParentsNewPodEqualsAFullRecomputation() {
    final Fixtures.ClusterBuilder tree =
        tree().total(cpu(200)).group(parentQuota("p").min(cpu(40)).max(cpu(200))).options(ON);
    final TreeSnapshot before = tree.compute();

    final Map<String, ResourceList> whatIf =
        WhatIfRuntimes.compute(
            WhatIfInputs.of(before, tree.inputs().groups(), Map.of("p", cpu(30))),
            "p",
            cpu(10),
            ON);

    final TreeSnapshot after = tree.pod(pod("p", "extra").request(cpu(10))).compute();
    assertThat(whatIf.get("p")).isEqualTo(status(after, "p").runtime());
    // p asks 30 + 50 + 10 = 90 and everything fits in 200.
    assertThat(whatIf.get("p")).isEqualTo(cpu(90));
  }
}
