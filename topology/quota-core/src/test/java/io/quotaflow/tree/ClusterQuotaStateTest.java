package io.quotaflow.tree;

import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.SpecialGroups;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The incremental state's contract: deltas, removals, restores and queries. */
class ClusterQuotaStateTest {

  private ClusterQuotaState state;

  @BeforeEach
  void cluster() {
    state = new ClusterQuotaState(QuotaOptions.DEFAULTS);
    state.putNode(Fixtures.node("n", cpu(100)));
    state.putGroup(quota("a").min(cpu(50)).max(cpu(100)).build());
    state.putGroup(quota("b").min(cpu(50)).max(cpu(100)).build());
    state.putPod(Fixtures.runningPod("a", "a1").request(cpu(10)).build());
    state.recompute();
  }

  @Test
  void theFirstRecomputationReportsEveryGroupAndPod() {
    final ClusterQuotaState fresh = new ClusterQuotaState(QuotaOptions.DEFAULTS);
    fresh.putGroup(quota("a").min(cpu(1)).build());
    fresh.putPod(Fixtures.pod("a", "p").build());

    final TreeDelta delta = fresh.recompute();

    assertThat(delta.changedGroups())
        .extracting(GroupStatus::name)
        .containsExactly(SpecialGroups.ROOT, "a", SpecialGroups.DEFAULT, SpecialGroups.SYSTEM);
    assertThat(delta.changedPods()).hasSize(1);
  }

  @Test
  void anEventThatChangesNothingGivesAnEmptyDelta() {
    state.putPod(Fixtures.runningPod("a", "a1").request(cpu(10)).build());

    assertThat(state.recompute().isEmpty()).isTrue();
  }

  @Test
  void aPodEventReportsOnlyTheGroupsWhoseNumbersMoved() {
    state.putPod(Fixtures.runningPod("a", "a2").request(cpu(5)).build());

    final TreeDelta delta = state.recompute();

    assertThat(delta.changedGroups())
        .extracting(GroupStatus::name)
        .containsExactly(SpecialGroups.ROOT, "a");
    assertThat(delta.changedPods())
        .extracting(PodAssignment::ref)
        .containsExactly(new PodRef("ns-a", "a2"));
  }

  @Test
  void removingAGroupReportsItAndMovesItsPodsToTheDefaultGroup() {
    state.removeGroup("a");

    final TreeDelta delta = state.recompute();

    assertThat(delta.removedGroups()).containsExactly("a");
    assertThat(delta.changedPods())
        .singleElement()
        .satisfies(p -> assertThat(p.group()).isEqualTo(SpecialGroups.DEFAULT));
    assertThat(state.group("a")).isEmpty();
    assertThat(state.group(SpecialGroups.DEFAULT).orElseThrow().used().get("cpu")).isEqualTo(10);
  }

  @Test
  void removingAPodReportsIt() {
    state.removePod(new PodRef("ns-a", "a1"));

    final TreeDelta delta = state.recompute();

    assertThat(delta.removedPods()).containsExactly(new PodRef("ns-a", "a1"));
    assertThat(state.podsOf("a")).isEmpty();
  }

  @Test
  void aRestoredStateReportsOnlyWhatDiffersFromThePreviousResult() {
    final TreeSnapshot previous = state.snapshot();
    final ClusterInputs inputs = state.inputs();
    final ClusterQuotaState restored =
        ClusterQuotaState.restore(QuotaOptions.DEFAULTS, inputs, previous);

    assertThat(restored.recompute().isEmpty()).isTrue();
    assertThat(restored.snapshot()).isEqualTo(previous);
  }

  @Test
  void podsOfListsThePodsChargedToAGroup() {
    assertThat(state.podsOf("a"))
        .extracting(QuotaPod::ref)
        .containsExactly(new PodRef("ns-a", "a1"));
    assertThat(state.podsOf("missing")).isEmpty();
  }

  @Test
  void recomputeAllChangesNothingWhenTheStateIsUpToDate() {
    assertThat(state.recomputeAll().isEmpty()).isTrue();
  }
}
