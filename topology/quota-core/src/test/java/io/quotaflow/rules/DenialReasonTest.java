package io.quotaflow.rules;

import static io.quotaflow.tree.Fixtures.cluster;
import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.parentQuota;
import static io.quotaflow.tree.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.NamespaceBinding;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.reason.Reason;
import io.quotaflow.rules.AdmissionCheck.PodState;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.Fixtures;
import io.quotaflow.tree.GroupDirectory;
import io.quotaflow.tree.QuotaOptions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * docs/semantics.md section 19: every denial carries the reason people, scripts and metrics see; a
 * failed runtime check says which limit the runtime sits at.
 */
class DenialReasonTest {

  private static AdmissionRequest request(String group, long milliCpu) {
    return new AdmissionRequest(
        new PodRef("ns", "new"), group, cpu(milliCpu), true, Optional.empty());
  }

  /** The reasons of a new pod of {@code milliCpu} in {@code group}, checked at creation. */
  private static List<Reason> newPod(Fixtures.ClusterBuilder builder, String group, long milli) {
    final ClusterQuotaState state = builder.state();
    return AdmissionCheck.check(
            request(group, milli),
            state.whatIfInputs(),
            InFlight.empty(),
            PodState.NEW,
            state.options().minScaling())
        .denials()
        .stream()
        .map(Denial::reason)
        .toList();
  }

  @Test
  void aRuntimeBelowMaxThatOthersHoldIsExceedsRuntime() {
    // team lends its min to other: with the pod it would get its min of 40, below its max of 100.
    assertThat(newPod(AdmissionTrees.teamLendingToOther(), "team", 31))
        .containsExactly(Reason.EXCEEDS_RUNTIME);
  }

  @Test
  void aRuntimeAtTheGroupsMaxIsExceedsMax() {
    final Fixtures.ClusterBuilder atMax =
        cluster()
            .total(cpu(100))
            .group(quota("team").min(cpu(10)).max(cpu(30)))
            .holding("team", cpu(30));

    assertThat(newPod(atMax, "team", 1)).containsExactly(Reason.EXCEEDS_MAX);
  }

  @Test
  void aRuntimeAtMinPlusTheBorrowingLimitBelowMaxIsBorrowingLimit() {
    final Fixtures.ClusterBuilder atLimit =
        cluster()
            .total(cpu(100))
            .group(quota("team").min(cpu(10)).max(cpu(100)).borrowingLimit(cpu(20)))
            .holding("team", cpu(30));

    assertThat(newPod(atLimit, "team", 1)).containsExactly(Reason.BORROWING_LIMIT);
  }

  @Test
  void aBorrowingLimitThatReachesMaxIsExceedsMax() {
    final Fixtures.ClusterBuilder limitIsMax =
        cluster()
            .total(cpu(100))
            .group(quota("team").min(cpu(10)).max(cpu(30)).borrowingLimit(cpu(20)))
            .holding("team", cpu(30));

    assertThat(newPod(limitIsMax, "team", 1)).containsExactly(Reason.EXCEEDS_MAX);
  }

  @Test
  void withoutTheSpecificationsABorrowingLimitCannotBeToldFromARuntime() {
    final ClusterQuotaState atLimit =
        cluster()
            .total(cpu(100))
            .group(quota("team").min(cpu(10)).max(cpu(100)).borrowingLimit(cpu(20)))
            .holding("team", cpu(30))
            .state();

    final AdmissionDecision decision =
        AdmissionCheck.check(
            request("team", 1), GroupLookup.of(atLimit.snapshot()), InFlight.empty());

    assertThat(decision.denials())
        .extracting(Denial::reason)
        .containsExactly(Reason.EXCEEDS_RUNTIME);
  }

  @Test
  void aGroupBelowAnInvalidAncestorIsInvalidGroup() {
    final Fixtures.ClusterBuilder belowInvalid =
        cluster()
            .total(cpu(100))
            .group(parentQuota("dept").min(cpu(-1)).max(cpu(100)))
            .group(quota("team").parent("dept").min(cpu(10)).max(cpu(100)))
            .holding("team", cpu(5));

    assertThat(belowInvalid.state().group("team").orElseThrow().valid()).isFalse();
    assertThat(newPod(belowInvalid, "team", 1)).contains(Reason.INVALID_GROUP);
  }

  @Test
  void aNonPreemptiblePodBeyondMinIsNonPreemptibleOverMin() {
    final ClusterQuotaState state =
        cluster()
            .total(cpu(100))
            .group(quota("team").min(cpu(10)).max(cpu(100)))
            .pod(Fixtures.runningPod("team", "keep").request(cpu(8)).preemptible(false))
            .demand("team", cpu(20))
            .state();
    final AdmissionRequest nonPreemptible =
        new AdmissionRequest(new PodRef("ns", "np"), "team", cpu(5), false, Optional.empty());

    assertThat(
            AdmissionCheck.check(nonPreemptible, GroupLookup.of(state.snapshot()), InFlight.empty())
                .denials())
        .extracting(Denial::reason)
        .containsExactly(Reason.NON_PREEMPTIBLE_OVER_MIN);
  }

  @Test
  void aPodOfAParentGroupIsParentGroup() {
    final QuotaGroup dept = parentQuota("dept").build();
    final QuotaGroup team = quota("team").parent("dept").build();
    final QuotaPod pod = Fixtures.pod("dept", "p").build();
    final AdmissionRequest request =
        AdmissionRequest.of(pod, GroupDirectory.of(List.of(dept, team)), QuotaOptions.DEFAULTS);

    assertThat(AdmissionCheck.check(request, name -> Optional.empty(), InFlight.empty()).denials())
        .extracting(Denial::reason)
        .containsExactly(Reason.PARENT_GROUP);
  }

  @Test
  void aPodNamingAGroupItsNamespaceIsNotBoundToIsNamespaceNotBound() {
    final QuotaGroup vision =
        quota("vision").namespace("quotas").namespaces(List.of("vision")).build();
    final QuotaPod pod = QuotaPod.builder("playground", "p").quotaName("vision").build();
    final AdmissionRequest request =
        AdmissionRequest.of(
            pod,
            GroupDirectory.of(List.of(vision)),
            QuotaOptions.DEFAULTS.withNamespaceBinding(NamespaceBinding.STRICT));

    assertThat(AdmissionCheck.check(request, name -> Optional.empty(), InFlight.empty()).denials())
        .extracting(Denial::reason)
        .containsExactly(Reason.NAMESPACE_NOT_BOUND);
  }

  @Test
  void aGroupWithoutComputedStatusIsUnknownGroup() {
    assertThat(
            AdmissionCheck.check(request("team", 1), name -> Optional.empty(), InFlight.empty())
                .denials())
        .extracting(Denial::reason)
        .containsExactly(Reason.UNKNOWN_GROUP);
  }
}
