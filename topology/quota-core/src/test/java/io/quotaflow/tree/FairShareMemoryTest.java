package io.quotaflow.tree;

import static io.quotaflow.tree.Fixtures.GPU;
import static io.quotaflow.tree.Fixtures.cluster;
import static io.quotaflow.tree.Fixtures.quota;
import static io.quotaflow.tree.Fixtures.res;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.eviction.VictimSelector;
import io.quotaflow.quota.ResourceList;
import org.junit.jupiter.api.Test;

/** Fair share with memory on whole trees (docs/semantics.md section 24), its worked examples. */
class FairShareMemoryTest {

  /** 12 GPUs; team-a and team-b, min 2, max 12 (so weight 12), each asking for 12. */
  private static ClusterQuotaState twoBorrowers() {
    return cluster()
        .total(res(GPU, 12))
        .group(quota("team-a").min(res(GPU, 2)).max(res(GPU, 12)))
        .group(quota("team-b").min(res(GPU, 2)).max(res(GPU, 12)))
        .demand("team-a", res(GPU, 12))
        .demand("team-b", res(GPU, 12))
        .state();
  }

  private static long runtime(ClusterQuotaState state, String group) {
    return state.group(group).orElseThrow().runtime().get(GPU);
  }

  @Test
  void withoutPastUseEqualWeightsSplitEvenly() {
    final ClusterQuotaState state = twoBorrowers();
    assertThat(runtime(state, "team-a")).isEqualTo(6);
    assertThat(runtime(state, "team-b")).isEqualTo(6);
  }

  /** Section 24, worked example: one hour after team-a borrowed 8 GPUs for an hour (average 4). */
  @Test
  void workedExampleTheGroupThatBorrowedGetsLessOfTheSurplus() {
    final ClusterQuotaState state = twoBorrowers();
    state.putPastUsage("team-a", res(GPU, 4));
    state.recompute();
    // Factors 3/4 and 1: weights 589,824 and 786,432 share 8 GPUs as 3 3/7 and 4 4/7; the
    // leftover unit goes to the larger remainder, team-b's.
    assertThat(runtime(state, "team-a")).isEqualTo(5);
    assertThat(runtime(state, "team-b")).isEqualTo(7);
    assertThat(state.group("team-a").orElseThrow().pastBorrowed()).isEqualTo(res(GPU, 4));
    assertThat(state.group("team-b").orElseThrow().pastBorrowed()).isEqualTo(ResourceList.empty());
  }

  @Test
  void theExplanationRecomputesTheRememberedSplitAndNamesTheFactor() {
    final ClusterQuotaState state = twoBorrowers();
    state.putPastUsage("team-a", res(GPU, 4));
    state.recompute();
    ExplanationCheck.verifyAll(state);
    assertThat(state.explainer().explain("team-b", GPU).orElseThrow().notes())
        .anySatisfy(
            note ->
                assertThat(note)
                    .contains("fair share with memory")
                    .contains(
                        "team-a (past borrowed 4): weight 12, factor 49152, effective 589824;"));
  }

  @Test
  void theWhatIfWeighsAsTheComputationDoes() {
    final ClusterQuotaState state = twoBorrowers();
    state.putPastUsage("team-a", res(GPU, 4));
    state.recompute();
    // One more GPU asked by team-a changes nothing: it is capped by the remembered split.
    assertThat(state.whatIfRuntimes("team-a", res(GPU, 1)).get("team-a").get(GPU)).isEqualTo(5);
  }

  /** Section 24, worked example: an hour later the average is 2, and the rounding evens it out. */
  @Test
  void workedExampleTheMemoryFades() {
    final ClusterQuotaState state = twoBorrowers();
    state.putPastUsage("team-a", res(GPU, 4));
    state.recompute();
    state.putPastUsage("team-a", res(GPU, 2));
    state.recompute();
    assertThat(runtime(state, "team-a")).isEqualTo(6);
    assertThat(runtime(state, "team-b")).isEqualTo(6);
  }

  @Test
  void pastUseInAnotherResourceChangesNothing() {
    final ClusterQuotaState state = twoBorrowers();
    state.putPastUsage("team-a", res(ResourceList.CPU, 40_000));
    state.recompute();
    assertThat(runtime(state, "team-a")).isEqualTo(6);
    assertThat(runtime(state, "team-b")).isEqualTo(6);
  }

  @Test
  void pastUseNeverTakesAGroupBelowItsMin() {
    final ClusterQuotaState state = twoBorrowers();
    state.putPastUsage("team-a", res(GPU, Long.MAX_VALUE));
    state.recompute();
    // Factor 1 against 65,536: team-a keeps its min and the one unit its tiny share rounds to.
    assertThat(runtime(state, "team-a")).isBetween(2L, 3L);
    assertThat(runtime(state, "team-a") + runtime(state, "team-b")).isEqualTo(12);
  }

  @Test
  void aNegativePastUseIsRefusedWithItsGroup() {
    final ClusterQuotaState state = twoBorrowers();
    assertThatThrownBy(() -> state.putPastUsage("team-a", res(GPU, -1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("team-a")
        .hasMessageContaining("negative");
  }

  /**
   * Reclaim (section 24, "Reclaim"): team-a and team-b each hold 50 GPUs in pods of 5; team-c asks
   * for its min of 40 back. Without memory both give back 10; with team-a's past use, team-a gives
   * back 15 and team-b still 10 (its runtime falls by 7 only, but its pods are of 5).
   */
  @Test
  void theGroupWithMorePastUseGivesBackMoreWhenCapacityIsReclaimed() {
    final Fixtures.ClusterBuilder builder =
        cluster()
            .total(res(GPU, 120))
            .group(quota("team-a").min(res(GPU, 20)).max(res(GPU, 120)))
            .group(quota("team-b").min(res(GPU, 20)).max(res(GPU, 120)))
            .group(quota("team-c").min(res(GPU, 40)).max(res(GPU, 40)));
    for (int i = 0; i < 10; i++) {
      builder.holding("team-a", res(GPU, 5)).holding("team-b", res(GPU, 5));
    }
    builder.demand("team-c", res(GPU, 40));
    final ClusterQuotaState plain = builder.state();
    assertThat(runtime(plain, "team-a")).isEqualTo(40);
    assertThat(runtime(plain, "team-b")).isEqualTo(40);
    assertThat(victims(plain, "team-a")).isEqualTo(2);
    assertThat(victims(plain, "team-b")).isEqualTo(2);

    final ClusterQuotaState remembered = builder.state();
    remembered.putPastUsage("team-a", res(GPU, 40));
    remembered.recompute();
    // Factor 120 / 160 = 3/4: 40 GPUs split 17 1/7 and 22 6/7, the leftover unit to team-b.
    assertThat(runtime(remembered, "team-a")).isEqualTo(37);
    assertThat(runtime(remembered, "team-b")).isEqualTo(43);
    assertThat(victims(remembered, "team-a")).isEqualTo(3);
    assertThat(victims(remembered, "team-b")).isEqualTo(2);
    assertThat(runtime(remembered, "team-c")).isEqualTo(40);
  }

  private static int victims(ClusterQuotaState state, String group) {
    return VictimSelector.select(
            state.group(group).orElseThrow(), state.podsOf(group), state.options())
        .victims()
        .size();
  }
}
