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
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

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

  /** The plan for {@code group} as the state computed it. */
  private static VictimPlan plan(ClusterQuotaState state, String group) {
    return VictimSelector.select(state.group(group).orElseThrow(), state.podsOf(group), OPTIONS);
  }

  private static List<String> victims(ClusterQuotaState state, String group) {
    return plan(state, group).victims().stream().map(v -> v.pod().name()).toList();
  }

  /** A group "g" whose runtime is {@code runtime}, the pods it holds and the victims chosen. */
  record Victims(
      String behaviour, ResourceList runtime, List<QuotaPod> pods, List<String> victims) {
    @Override
    public String toString() {
      return behaviour;
    }
  }

  static Stream<Victims> victimChoices() {
    return Stream.of(
        new Victims(
            "lowest priority goes first and among equals the most recently started",
            cpu(10),
            List.of(
                running("important", cpu(4), 10, 1),
                running("old-low", cpu(4), 0, 2),
                running("new-low", cpu(4), 0, 3)),
            List.of("new-low")),
        new Victims(
            "a pod that does not touch the over dimension is added back",
            cpuMemory(10, 10),
            List.of(
                running("memory-hog", cpuMemory(0, 15), 5, 1),
                running("cpu-only", cpuMemory(3, 0), 0, 2)),
            List.of("memory-hog")),
        new Victims(
            "non-preemptible pods are never victims",
            cpu(10),
            List.of(
                Fixtures.runningPod("g", "keep").request(cpu(12)).preemptible(false).build(),
                running("spare", cpu(2), 9, 1)),
            List.of("spare")),
        new Victims(
            "a group within its runtime has no victims",
            cpu(10),
            List.of(running("fits", cpu(10), 0, 1)),
            List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("victimChoices")
  void selectsTheSpecifiedVictims(Victims row) {
    final ClusterQuotaState state =
        groupHolding(row.runtime(), row.pods().toArray(QuotaPod[]::new));

    assertThat(victims(state, "g")).containsExactlyElementsOf(row.victims());
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

    final VictimPlan plan = plan(state, "g");

    assertThat(plan.victims()).extracting(v -> v.pod().name()).containsExactly("big");
    assertThat(plan.used()).isEqualTo(cpu(14));
    assertThat(plan.usedAfter()).isEqualTo(cpu(9));
    assertThat(plan.overDimensions()).containsExactly("cpu");
    assertThat(plan.victims().get(0).uid()).isEqualTo("ns-g-big-uid");
  }

  @Test
  void podsInProtectedNamespacesAndOfSystemPrioritiesAreNeverVictims() {
    // Over by 9: the least important pods are protected, so the only other one goes.
    final ClusterQuotaState state =
        groupHolding(
            cpu(10),
            QuotaPod.builder("kube-system", "dns")
                .quotaName("g")
                .running("node-1")
                .request(cpu(5))
                .priority(0)
                .build(),
            running("critical", cpu(5), ProtectedPods.SYSTEM_PRIORITY_FLOOR, 2),
            running("batch", cpu(9), 100, 3));

    assertThat(victims(state, "g")).containsExactly("batch");
  }

  @Test
  void aNamespaceProtectedBySettingIsNeverReclaimedEvenWhenNothingElseCanGo() {
    final ClusterQuotaState state =
        groupHolding(cpu(10), running("a", cpu(8), 0, 1), running("b", cpu(8), 0, 2));
    final QuotaOptions protectingTheGroup =
        OPTIONS.withProtectedPods(new ProtectedPods(Set.of("ns-g"), Set.of()));

    final VictimPlan plan =
        VictimSelector.select(
            state.group("g").orElseThrow(), state.podsOf("g"), protectingTheGroup);

    assertThat(plan.victims()).isEmpty();
    assertThat(victims(state, "g")).containsExactly("b");
  }

  @Test
  void podsOfTheClustersInfrastructureNamespacesAreNeverVictimsByDefault() {
    // Issue 39: Kafka, Strimzi, cert-manager, Koordinator and monitoring keep quotaflow running.
    final List<String> infrastructure =
        List.of(
            "kafka",
            "strimzi",
            "strimzi-system",
            "cert-manager",
            "koordinator-system",
            "monitoring");
    for (final String namespace : infrastructure) {
      final ClusterQuotaState state =
          groupHolding(
              cpu(10),
              QuotaPod.builder(namespace, "infra")
                  .quotaName("g")
                  .running("node-1")
                  .request(cpu(5))
                  .priority(0)
                  .startTime(at(9))
                  .build(),
              running("batch", cpu(9), 100, 3));

      assertThat(victims(state, "g")).as(namespace).containsExactly("batch");
    }
  }

  @Test
  void theDefaultGroupIsNotReclaimedUnlessASettingTurnsItOn() {
    final ClusterQuotaState state = new ClusterQuotaState(OPTIONS);
    state.putNode(Fixtures.node("n", cpu(20)));
    state.putGroup(quota(SpecialGroups.DEFAULT).max(cpu(10)).build());
    // Unlabelled pods of a namespace no group claims: the default group's, over its max of 10.
    state.putPod(
        QuotaPod.builder("web", "a").running("node-1").request(cpu(8)).startTime(at(1)).build());
    state.putPod(
        QuotaPod.builder("web", "b").running("node-1").request(cpu(8)).startTime(at(2)).build());
    state.recompute();
    final GroupStatus group = state.group(SpecialGroups.DEFAULT).orElseThrow();

    final VictimPlan byDefault =
        VictimSelector.select(group, state.podsOf(SpecialGroups.DEFAULT), OPTIONS);
    final VictimPlan turnedOn =
        VictimSelector.select(
            group,
            state.podsOf(SpecialGroups.DEFAULT),
            OPTIONS.withProtectedPods(ProtectedPods.DEFAULTS.withDefaultGroupReclaimed(true)));

    assertThat(byDefault.overDimensions()).containsExactly("cpu");
    assertThat(byDefault.victims()).isEmpty();
    assertThat(turnedOn.victims()).extracting(v -> v.pod().name()).containsExactly("b");
  }

  @Test
  void terminatingPodsCountAsAlreadyGone() {
    final ClusterQuotaState state =
        groupHolding(
            cpu(10),
            running("stays", cpu(8), 0, 1),
            Fixtures.runningPod("g", "leaving").request(cpu(5)).deletionTime(at(9)).build());

    final VictimPlan plan = plan(state, "g");

    assertThat(plan.isEmpty()).isTrue();
    assertThat(plan.used()).isEqualTo(cpu(8));
  }

  @Test
  void invalidGroupsTheSystemGroupAndParentsAreNeverReclaimedDirectly() {
    final ClusterQuotaState state = groupHolding(cpu(10), running("p", cpu(12), 0, 1));
    final GroupStatus over = state.group("g").orElseThrow();
    final GroupStatus invalid = copy(over, over.name(), false, false, Optional.of("broken"));
    final GroupStatus parent = copy(over, over.name(), true, true, Optional.empty());
    final GroupStatus system = copy(over, SpecialGroups.SYSTEM, false, true, Optional.empty());

    assertThat(VictimSelector.select(over, state.podsOf("g"), OPTIONS).isEmpty()).isFalse();
    assertThat(VictimSelector.select(invalid, state.podsOf("g"), OPTIONS).isEmpty()).isTrue();
    assertThat(VictimSelector.select(parent, state.podsOf("g"), OPTIONS).isEmpty()).isTrue();
    assertThat(VictimSelector.select(system, state.podsOf("g"), OPTIONS).isEmpty()).isTrue();
    assertThat(OverUse.of(invalid)).isEmpty();
    assertThat(OverUse.of(system)).isEmpty();
    assertThat(OverUse.of(parent)).hasValueSatisfying(o -> assertThat(o.parentGroup()).isTrue());
  }

  /** {@code status} with another name, kind and validity, every number kept. */
  private static GroupStatus copy(
      GroupStatus status,
      String name,
      boolean parentGroup,
      boolean valid,
      Optional<String> reason) {
    return new GroupStatus(
        name,
        status.parent(),
        parentGroup,
        valid,
        reason,
        status.min(),
        status.scaledMin(),
        status.max(),
        status.sharedWeight(),
        status.request(),
        status.limitedRequest(),
        status.used(),
        status.nonPreemptibleRequest(),
        status.nonPreemptibleUsed(),
        status.runtime());
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
