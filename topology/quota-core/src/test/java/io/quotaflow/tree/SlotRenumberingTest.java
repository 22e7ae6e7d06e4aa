package io.quotaflow.tree;

import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.parentQuota;
import static io.quotaflow.tree.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaPod;
import org.junit.jupiter.api.Test;

/**
 * The state renumbers its group slots into tree order whenever the tree's shape changes: every
 * group must keep its pods, sums and results through any number of renumberings.
 */
class SlotRenumberingTest {

  private final ClusterQuotaState state = new ClusterQuotaState(QuotaOptions.DEFAULTS);

  /** Leaves arrive before their parents and in reverse name order: every slot moves. */
  private void buildInReverse() {
    state.putNode(Fixtures.node("n", cpu(1_000)));
    for (int team = 3; team >= 0; team--) {
      for (int leaf = 3; leaf >= 0; leaf--) {
        final String name = "t" + team + "-l" + leaf;
        state.putGroup(quota(name).parent("t" + team).min(cpu(10)).max(cpu(200)).build());
        state.putPod(pod(name, "p", 20 + 10 * leaf));
      }
      state.putGroup(parentQuota("t" + team).min(cpu(50)).max(cpu(800)).build());
    }
  }

  private static QuotaPod pod(String group, String name, long milli) {
    return Fixtures.pod(group, name).running("n").request(cpu(milli)).build();
  }

  private void assertEqualsFullComputation() {
    assertThat(state.snapshot())
        .isEqualTo(QuotaCalculator.compute(state.inputs(), QuotaOptions.DEFAULTS));
  }

  @Test
  void groupsKeepTheirPodsAndSumsWhenTheirSlotsMove() {
    buildInReverse();
    state.recompute();

    assertEqualsFullComputation();
    assertThat(ownCpu("t2-l3")).isEqualTo(50);
    assertThat(state.podsOf("t1-l0")).extracting(QuotaPod::ref).containsExactly(ref("t1-l0"));
  }

  @Test
  void podEventsAfterARenumberingChargeTheMovedGroups() {
    buildInReverse();
    state.recompute();

    state.removePod(ref("t3-l3"));
    state.putPod(pod("t0-l0", "extra", 70));
    state.recompute();

    assertEqualsFullComputation();
    assertThat(ownCpu("t3-l3")).isEqualTo(0);
    assertThat(ownCpu("t0-l0")).isEqualTo(90);
  }

  @Test
  void addingAndRemovingGroupsRenumbersAgainWithoutLosingAnything() {
    buildInReverse();
    state.recompute();

    state.removeGroup("t1-l2");
    state.putGroup(quota("a-first").min(cpu(5)).build());
    state.putGroup(quota("t1-l9").parent("t1").min(cpu(5)).build());
    state.putPod(pod("t1-l9", "p", 40));
    state.recompute();
    assertEqualsFullComputation();

    // The pod of the removed group comes back with it.
    state.putGroup(quota("t1-l2").parent("t1").min(cpu(10)).max(cpu(200)).build());
    state.recompute();
    assertEqualsFullComputation();
    assertThat(ownCpu("t1-l2")).isEqualTo(40);
    assertThat(ownCpu("t1-l9")).isEqualTo(40);
  }

  private long ownCpu(String group) {
    return state.ownRequest(group).orElseThrow().get("cpu");
  }

  private static PodRef ref(String group) {
    return pod(group, "p", 1).ref();
  }
}
