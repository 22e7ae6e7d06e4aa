package io.quotaflow.eviction;

import static io.quotaflow.tree.Fixtures.at;
import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.cpuMemory;
import static io.quotaflow.tree.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.Fixtures;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SPEC 11: which pods of an over-used group are evicted. */
class VictimSelectorTest {

  private static final QuotaOptions OPTIONS = QuotaOptions.DEFAULTS;

  /** A group "g" with the given runtime (total = runtime, nothing else) holding {@code pods}. */
  private static ClusterQuotaState groupHolding(ResourceList runtime, QuotaPod... pods) {
    final ClusterQuotaState state = new ClusterQuotaState(OPTIONS);
    state.putNode(Fixtures.node("n", runtime));
    state.putGroup(quota("g").min(runtime).max(runtime).build());
    for (final QuotaPod pod : pods) {
      state.putPod(pod);
    }
    state.recompute();
    return state;
  }

  private static QuotaPod running(String name, ResourceList request, int priority, long started) {
    return Fixtures.runningPod("g", name)
        .request(request)
        .priority(priority)
        .startTime(at(started))
        .creationTime(at(started))
        .build();
  }

  private static List<String> victims(ClusterQuotaState state, String group) {
    final GroupStatus status = state.group(group).orElseThrow();
    return VictimSelector.select(status, state.podsOf(group), OPTIONS).victims().stream()
        .map(v -> v.pod().name())
        .toList();
  }

  @Test
  void lowestPriorityGoesFirstAndAmongEqualsTheMostRecentlyStarted() {
    final ClusterQuotaState state =
        groupHolding(
            cpu(10),
            running("important", cpu(4), 10, 1),
            running("old-low", cpu(4), 0, 2),
            running("new-low", cpu(4), 0, 3));

    assertThat(victims(state, "g")).containsExactly("new-low");
  }

  @Test
  void podsRemovedOnTheWayThatStillFitAreAddedBack() {
    // Over by 4: "tiny" (least important) and "big" must go before used fits; "tiny" fits back.
    final ClusterQuotaState state =
        groupHolding(
            cpu(10),
            running("keeper", cpu(8), 5, 1),
            running("big", cpu(5), 0, 2),
            running("tiny", cpu(1), 0, 3));

    final VictimPlan plan =
        VictimSelector.select(state.group("g").orElseThrow(), state.podsOf("g"), OPTIONS);

    assertThat(plan.victims()).extracting(v -> v.pod().name()).containsExactly("big");
    assertThat(plan.used()).isEqualTo(cpu(14));
    assertThat(plan.usedAfter()).isEqualTo(cpu(9));
    assertThat(plan.overDimensions()).containsExactly("cpu");
    assertThat(plan.victims().get(0).uid()).isEqualTo("ns-g-big-uid");
  }

  @Test
  void aPodThatDoesNotTouchTheOverDimensionIsAddedBack() {
    final ClusterQuotaState state =
        groupHolding(
            cpuMemory(10, 10),
            running("memory-hog", cpuMemory(0, 15), 5, 1),
            running("cpu-only", cpuMemory(3, 0), 0, 2));

    assertThat(victims(state, "g")).containsExactly("memory-hog");
  }

  @Test
  void nonPreemptiblePodsAreNeverVictims() {
    final ClusterQuotaState state =
        groupHolding(
            cpu(10),
            Fixtures.runningPod("g", "keep").request(cpu(12)).preemptible(false).build(),
            running("spare", cpu(2), 9, 1));

    assertThat(victims(state, "g")).containsExactly("spare");
  }

  @Test
  void terminatingPodsCountAsAlreadyGone() {
    final ClusterQuotaState state =
        groupHolding(
            cpu(10),
            running("stays", cpu(8), 0, 1),
            Fixtures.runningPod("g", "leaving").request(cpu(5)).deletionTime(at(9)).build());

    final VictimPlan plan =
        VictimSelector.select(state.group("g").orElseThrow(), state.podsOf("g"), OPTIONS);

    assertThat(plan.isEmpty()).isTrue();
    assertThat(plan.used()).isEqualTo(cpu(8));
  }

  @Test
  void aGroupWithinItsRuntimeHasNoVictims() {
    final ClusterQuotaState state = groupHolding(cpu(10), running("fits", cpu(10), 0, 1));

    assertThat(victims(state, "g")).isEmpty();
  }

  @Test
  void invalidGroupsTheSystemGroupAndParentsAreNeverReclaimedDirectly() {
    final ClusterQuotaState state = groupHolding(cpu(10), running("p", cpu(12), 0, 1));
    final GroupStatus over = state.group("g").orElseThrow();
    final GroupStatus invalid =
        new GroupStatus(
            over.name(),
            over.parent(),
            false,
            false,
            java.util.Optional.of("broken"),
            over.min(),
            over.scaledMin(),
            over.max(),
            over.sharedWeight(),
            over.request(),
            over.limitedRequest(),
            over.used(),
            over.nonPreemptibleRequest(),
            over.nonPreemptibleUsed(),
            over.runtime());
    final GroupStatus parent =
        new GroupStatus(
            over.name(),
            over.parent(),
            true,
            true,
            java.util.Optional.empty(),
            over.min(),
            over.scaledMin(),
            over.max(),
            over.sharedWeight(),
            over.request(),
            over.limitedRequest(),
            over.used(),
            over.nonPreemptibleRequest(),
            over.nonPreemptibleUsed(),
            over.runtime());
    final GroupStatus system =
        new GroupStatus(
            SpecialGroups.SYSTEM,
            over.parent(),
            false,
            true,
            java.util.Optional.empty(),
            over.min(),
            over.scaledMin(),
            over.max(),
            over.sharedWeight(),
            over.request(),
            over.limitedRequest(),
            over.used(),
            over.nonPreemptibleRequest(),
            over.nonPreemptibleUsed(),
            over.runtime());

    assertThat(VictimSelector.select(over, state.podsOf("g"), OPTIONS).isEmpty()).isFalse();
    assertThat(VictimSelector.select(invalid, state.podsOf("g"), OPTIONS).isEmpty()).isTrue();
    assertThat(VictimSelector.select(parent, state.podsOf("g"), OPTIONS).isEmpty()).isTrue();
    assertThat(VictimSelector.select(system, state.podsOf("g"), OPTIONS).isEmpty()).isTrue();
    assertThat(OverUse.of(invalid)).isEmpty();
    assertThat(OverUse.of(system)).isEmpty();
    assertThat(OverUse.of(parent)).hasValueSatisfying(o -> assertThat(o.parentGroup()).isTrue());
  }

  @Test
  void overUseNamesTheDimensionsWhereUsedExceedsRuntime() {
    final ClusterQuotaState state =
        groupHolding(cpuMemory(10, 10), running("p", cpuMemory(12, 4), 0, 1));

    assertThat(OverUse.find(state.snapshot().groups()))
        .singleElement()
        .satisfies(
            o -> {
              assertThat(o.group()).isEqualTo("g");
              assertThat(o.overDimensions()).containsExactly("cpu");
            });
  }
}
