package io.quotaflow.rules;

import static io.quotaflow.tree.Fixtures.cluster;
import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.cpuMemory;
import static io.quotaflow.tree.Fixtures.parentQuota;
import static io.quotaflow.tree.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.reason.Reason;
import io.quotaflow.rules.Denial.Check;
import io.quotaflow.tree.Fixtures;
import io.quotaflow.tree.TreeSnapshot;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** SPEC 10: whether a pod fits its group and every ancestor, in-flight admissions included. */
class AdmissionCheckTest {

  /**
   * dept (runtime 65, used 55) holds team (runtime 45, used 40) and sibling, which keeps its min of
   * 20 without lending it and uses 15: the team is the tighter bound.
   */
  private static final TreeSnapshot TREE = AdmissionTrees.teamInDept().compute();

  private static AdmissionRequest request(String group, ResourceList request) {
    return new AdmissionRequest(new PodRef("ns", "new"), group, request, true, Optional.empty());
  }

  private static AdmissionDecision check(AdmissionRequest request, InFlight inFlight) {
    return AdmissionCheck.check(request, GroupLookup.of(TREE), inFlight);
  }

  @Test
  void aPodFitsWhenUsedPlusItsRequestStaysWithinEveryRuntimeUpTheTree() {
    assertThat(Fixtures.runtime(TREE, "team", "cpu")).isEqualTo(45);
    assertThat(Fixtures.runtime(TREE, "dept", "cpu")).isEqualTo(65);
    final AdmissionDecision decision = check(request("team", cpu(5)), InFlight.empty());

    assertThat(decision.allowed()).isTrue();
    assertThat(decision.hold())
        .hasValueSatisfying(r -> assertThat(r.groups()).containsExactly("team", "dept"));
  }

  @Test
  void aDenialListsTheGroupDimensionAndNumbers() {
    final AdmissionDecision decision = check(request("team", cpu(6)), InFlight.empty());

    assertThat(decision.allowed()).isFalse();
    assertThat(decision.denials())
        .containsExactly(
            new Denial(Check.RUNTIME, Reason.EXCEEDS_MAX, "team", "cpu", 45, 40, 0, 6, ""));
    assertThat(decision.message())
        .isEqualTo(
            "exceeds-max: group team cpu: used 40m + in-flight 0 + request 6m > runtime 45m");
  }

  @Test
  void anAncestorWithoutRoomDeniesEvenWhenTheGroupHasRoom() {
    final TreeSnapshot tree = AdmissionTrees.teamUnderAFullDept().compute();

    final AdmissionDecision decision =
        AdmissionCheck.check(request("team", cpu(3)), GroupLookup.of(tree), InFlight.empty());

    assertThat(decision.denials()).extracting(Denial::group).containsExactly("dept");
  }

  @Test
  void inFlightAdmissionsCountUntilTheyAreSeenAsUsed() {
    final AdmissionDecision first = check(request("team", cpu(4)), InFlight.empty());
    final InFlight held = InFlight.empty().plus(first.hold().orElseThrow());

    final AdmissionDecision second =
        AdmissionCheck.check(
            new AdmissionRequest(
                new PodRef("ns", "second"), "team", cpu(4), true, Optional.empty()),
            GroupLookup.of(TREE),
            held);

    assertThat(second.denials())
        .containsExactly(
            new Denial(Check.RUNTIME, Reason.EXCEEDS_MAX, "team", "cpu", 45, 40, 4, 4, ""));
    assertThat(check(request("team", cpu(4)), held.minus(new PodRef("ns", "new"))).allowed())
        .isTrue();
  }

  @Test
  void aGroupOverItsRuntimeInAnyDimensionAdmitsNothing() {
    final TreeSnapshot tree =
        cluster()
            .total(cpuMemory(100, 10))
            .group(quota("team").min(cpuMemory(10, 5)).max(cpuMemory(100, 5)))
            .holding("team", cpuMemory(1, 8))
            .demand("team", cpu(50))
            .compute();

    final AdmissionDecision decision =
        AdmissionCheck.check(request("team", cpu(1)), GroupLookup.of(tree), InFlight.empty());

    assertThat(decision.denials())
        .containsExactly(
            new Denial(Check.RUNTIME, Reason.EXCEEDS_MAX, "team", "memory", 5, 8, 0, 0, ""));
  }

  @Test
  void aNonPreemptiblePodMustAlsoFitInMinAtItsGroupAndAncestors() {
    final TreeSnapshot tree =
        cluster()
            .total(cpu(100))
            .group(parentQuota("dept").min(cpu(20)).max(cpu(100)))
            .group(quota("team").parent("dept").min(cpu(20)).max(cpu(100)))
            .pod(Fixtures.runningPod("team", "keep").request(cpu(18)).preemptible(false))
            .demand("team", cpu(20))
            .compute();
    final AdmissionRequest nonPreemptible =
        new AdmissionRequest(new PodRef("ns", "np"), "team", cpu(5), false, Optional.empty());

    final AdmissionDecision decision =
        AdmissionCheck.check(nonPreemptible, GroupLookup.of(tree), InFlight.empty());

    assertThat(decision.denials())
        .containsExactly(
            new Denial(Check.NON_PREEMPTIBLE_MIN, "team", "cpu", 20, 18, 0, 5, ""),
            new Denial(Check.NON_PREEMPTIBLE_MIN, "dept", "cpu", 20, 18, 0, 5, ""));
    assertThat(
            AdmissionCheck.check(request("team", cpu(5)), GroupLookup.of(tree), InFlight.empty())
                .allowed())
        .isTrue();
  }

  @Test
  void theSystemGroupIsNeverLimited() {
    final TreeSnapshot tree = cluster().total(cpu(10)).compute();

    assertThat(
            AdmissionCheck.check(
                    request(SpecialGroups.SYSTEM, cpu(1000)),
                    GroupLookup.of(tree),
                    InFlight.empty())
                .allowed())
        .isTrue();
  }

  @Test
  void aPodResolvingToAParentOrAnUnknownGroupIsDenied() {
    final AdmissionDecision parent =
        check(
            new AdmissionRequest(
                new PodRef("ns", "p"), "dept", cpu(1), true, Optional.of("resolves to parent")),
            InFlight.empty());
    final AdmissionDecision unknown = check(request("nobody", cpu(1)), InFlight.empty());

    assertThat(parent.denials()).extracting(Denial::check).containsExactly(Check.NOT_A_LEAF);
    assertThat(unknown.denials()).extracting(Denial::check).containsExactly(Check.UNKNOWN_GROUP);
  }

  @Test
  void anAdmissionRequestResolvesThePodsGroupAndDerivedRequest() {
    final QuotaGroup team = quota("team").min(cpu(1)).build();
    final AdmissionRequest built =
        AdmissionRequest.of(
            Fixtures.pod("team", "p").request(cpu(3)).build(),
            io.quotaflow.tree.GroupDirectory.of(List.of(team)),
            io.quotaflow.tree.QuotaOptions.DEFAULTS);

    assertThat(built.group()).isEqualTo("team");
    assertThat(built.request()).isEqualTo(cpu(3));
    assertThat(built.problem()).isEmpty();
  }

  @Test
  void inFlightSumsAtEveryGroupOfTheChain() {
    final InFlight held =
        InFlight.empty()
            .plus(new InFlight.Hold(new PodRef("ns", "a"), List.of("team", "dept"), cpu(2), false))
            .plus(
                new InFlight.Hold(new PodRef("ns", "b"), List.of("sibling", "dept"), cpu(3), true));

    assertThat(held.at("dept")).isEqualTo(cpu(5));
    assertThat(held.at("team")).isEqualTo(cpu(2));
    assertThat(held.nonPreemptibleAt("dept")).isEqualTo(cpu(3));
    assertThat(held.minus(new PodRef("ns", "b")).at("dept")).isEqualTo(cpu(2));
    assertThat(held.minus(new PodRef("ns", "a")).minus(new PodRef("ns", "b")).isEmpty()).isTrue();
  }
}
