package io.quotaflow.eviction;

import static io.quotaflow.tree.Fixtures.at;
import static io.quotaflow.tree.Fixtures.cpu;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.Gang;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.Fixtures;
import io.quotaflow.tree.QuotaOptions;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** Reclaim by gang (issue 28): the running members of a gang are evicted together or not at all. */
class GangReclaimTest {

  private static final QuotaOptions OPTIONS = QuotaOptions.DEFAULTS;

  private static ClusterQuotaState groupHolding(ResourceList runtime, QuotaPod... pods) {
    final ClusterQuotaState state = new ClusterQuotaState(OPTIONS);
    state.putNode(Fixtures.node("n", runtime));
    state.putGroup(Fixtures.quota("g").min(runtime).max(runtime).build());
    for (final QuotaPod pod : pods) {
      state.putPod(pod);
    }
    state.recompute();
    return state;
  }

  private static QuotaPod.Builder running(String name, long cpu, int priority, long started) {
    return Fixtures.runningPod("g", name)
        .request(cpu(cpu))
        .priority(priority)
        .startTime(at(started))
        .creationTime(at(started));
  }

  private static Gang gang(String name, int minMember) {
    return new Gang(name, OptionalInt.of(minMember), "scheduler-plugins");
  }

  private static VictimPlan plan(ClusterQuotaState state) {
    return VictimSelector.select(state.group("g").orElseThrow(), state.podsOf("g"), OPTIONS);
  }

  private static List<String> victims(ClusterQuotaState state) {
    return plan(state).victims().stream().map(v -> v.pod().name()).toList();
  }

  @Test
  void aGangIsEvictedWholeEvenWhenOneMemberWouldGiveBackEnough() {
    // Over by 1: one worker would do, but the others would hold their 2 cpu uselessly.
    final ClusterQuotaState state =
        groupHolding(
            cpu(10),
            running("keeper", 5, 10, 1).build(),
            running("w0", 2, 0, 2).gang(gang("train", 3)).build(),
            running("w1", 2, 0, 3).gang(gang("train", 3)).build(),
            running("w2", 2, 0, 4).gang(gang("train", 3)).build());

    final VictimPlan plan = plan(state);

    assertThat(plan.victims()).extracting(v -> v.pod().name()).containsExactly("w2", "w1", "w0");
    assertThat(plan.victims())
        .extracting(Victim::gang)
        .containsOnly(Optional.of(new EvictedGang("train", 3)));
    assertThat(plan.usedAfter()).isEqualTo(cpu(5));
  }

  @Test
  void aGangIsAsImportantAsItsMostImportantMember() {
    // The gang's worker has priority 0, but its launcher 10: the lone pod of priority 5 goes.
    final ClusterQuotaState state =
        groupHolding(
            cpu(10),
            running("launcher", 1, 10, 1).gang(gang("mpi", 2)).build(),
            running("worker", 4, 0, 1).gang(gang("mpi", 2)).build(),
            running("lone", 8, 5, 1).build());

    assertThat(victims(state)).containsExactly("lone");
  }

  @Test
  void amongEqualPrioritiesTheGangWhoseLastMemberStartedLatestGoesFirst() {
    final ClusterQuotaState state =
        groupHolding(
            cpu(10),
            running("early", 6, 0, 5).build(),
            running("a", 3, 0, 1).gang(gang("late", 2)).build(),
            running("b", 3, 0, 9).gang(gang("late", 2)).build());

    assertThat(victims(state)).containsExactlyInAnyOrder("a", "b");
  }

  @Test
  void aGangWithAMemberThatMayNotBeEvictedIsNoCandidate() {
    final ClusterQuotaState state =
        groupHolding(
            cpu(10),
            running("w0", 4, 0, 1).gang(gang("train", 2)).build(),
            running("w1", 4, 0, 2).gang(gang("train", 2)).preemptible(false).build(),
            running("serving", 4, 50, 3).build());

    assertThat(victims(state)).containsExactly("serving");
  }

  @Test
  void aGangWithAProtectedMemberIsNoCandidate() {
    final ClusterQuotaState state =
        groupHolding(
            cpu(10),
            running("w0", 6, 0, 1).gang(gang("train", 2)).build(),
            running("w1", 6, ProtectedPods.SYSTEM_PRIORITY_FLOOR, 2)
                .gang(gang("train", 2))
                .build());

    assertThat(plan(state).victims()).isEmpty();
  }

  @Test
  void aGangAlreadyBelowItsMinMemberGoesFirstWhateverItsPriority() {
    // "broken" runs 2 of its 3 members: useless, it goes before the low-priority pod.
    final ClusterQuotaState state =
        groupHolding(
            cpu(10),
            running("b0", 3, 100, 1).gang(gang("broken", 3)).build(),
            running("b1", 3, 100, 2).gang(gang("broken", 3)).build(),
            Fixtures.pod("g", "b2").priority(100).gang(gang("broken", 3)).build(),
            running("low", 6, 0, 3).build());

    assertThat(victims(state)).containsExactly("b1", "b0");
  }

  @Test
  void aGangWithoutMinMemberIsNeverBroken() {
    final Gang unknown = new Gang("train", OptionalInt.empty(), "volcano");
    final ClusterQuotaState state =
        groupHolding(
            cpu(10),
            running("w0", 3, 100, 1).gang(unknown).build(),
            running("w1", 3, 100, 2).gang(unknown).build(),
            running("low", 6, 0, 3).build());

    assertThat(victims(state)).containsExactly("low");
  }

  @Test
  void aGangRemovedOnTheWayIsAddedBackWhenItFits() {
    // Over by 5: the small gang (least important) goes, then "big"; the gang then fits back.
    final ClusterQuotaState state =
        groupHolding(
            cpu(10),
            running("keeper", 8, 50, 1).build(),
            running("big", 5, 10, 2).build(),
            running("s0", 1, 0, 3).gang(gang("small", 2)).build(),
            running("s1", 1, 0, 3).gang(gang("small", 2)).build());

    final VictimPlan plan = plan(state);

    assertThat(plan.victims()).extracting(v -> v.pod().name()).containsExactly("big");
    assertThat(plan.usedAfter()).isEqualTo(cpu(10));
  }

  @Test
  void terminatingMembersAreAlreadyGoneAndNotCountedInTheGang() {
    final ClusterQuotaState state =
        groupHolding(
            cpu(4),
            running("w0", 3, 0, 1).gang(gang("train", 1)).build(),
            running("w1", 3, 0, 2).gang(gang("train", 1)).build(),
            running("w2", 3, 0, 3).gang(gang("train", 1)).deletionTime(at(9)).build());

    final VictimPlan plan = plan(state);

    assertThat(plan.used()).isEqualTo(cpu(6));
    assertThat(plan.victims())
        .extracting(Victim::gang)
        .containsExactly(
            Optional.of(new EvictedGang("train", 2)), Optional.of(new EvictedGang("train", 2)));
  }

  @Test
  void gangsOfTheSameNameInTwoNamespacesAreTwoGangs() {
    final ClusterQuotaState state =
        groupHolding(
            cpu(10),
            running("a", 6, 0, 1).gang(gang("train", 1)).build(),
            QuotaPod.builder("other", "b")
                .quotaName("g")
                .running("node-1")
                .request(cpu(6))
                .priority(5)
                .startTime(at(1))
                .creationTime(at(1))
                .gang(gang("train", 1))
                .build());

    assertThat(victims(state)).containsExactly("a");
  }
}
