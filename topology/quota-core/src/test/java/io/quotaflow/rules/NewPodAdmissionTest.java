package io.quotaflow.rules;

import static io.quotaflow.tree.Fixtures.cluster;
import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.PodRef;
import io.quotaflow.reason.Reason;
import io.quotaflow.rules.AdmissionCheck.PodState;
import io.quotaflow.rules.Denial.Check;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.Fixtures;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SPEC 10 at pod creation: the pod is counted in no request yet, so it is checked against the
 * runtimes its group and ancestors would have with it (and the in-flight admissions) counted.
 */
class NewPodAdmissionTest {

  /** A computed cluster and the two checks over it. */
  private record Cluster(ClusterQuotaState state) {

    static Cluster of(Fixtures.ClusterBuilder builder) {
      return new Cluster(builder.state());
    }

    AdmissionDecision newPod(String group, long milliCpu) {
      return newPod(request(group, milliCpu), InFlight.empty());
    }

    AdmissionDecision newPod(AdmissionRequest request, InFlight inFlight) {
      return AdmissionCheck.check(
          request, state.whatIfInputs(), inFlight, PodState.NEW, state.options().minScaling());
    }

    /** The check against the runtimes as computed, as if the pod were already counted. */
    AdmissionDecision asComputed(String group, long milliCpu) {
      return AdmissionCheck.check(
          request(group, milliCpu), GroupLookup.of(state.snapshot()), InFlight.empty());
    }

    long runtime(String group) {
      return state.group(group).orElseThrow().runtime().get("cpu");
    }
  }

  private static AdmissionRequest request(String group, long milliCpu) {
    return new AdmissionRequest(
        new PodRef("ns", "new"), group, cpu(milliCpu), true, Optional.empty());
  }

  /**
   * A group whose computed runtime is exactly its request, so that as computed nothing new fits,
   * and the largest new pod the what-if runtimes admit, with the denial of one more milli-cpu.
   */
  record RoomForANewPod(
      String behaviour,
      Fixtures.ClusterBuilder cluster,
      String group,
      long runtimeAsComputed,
      long largestAdmitted,
      Denial denialOfOneMore) {
    @Override
    public String toString() {
      return behaviour;
    }
  }

  static Stream<RoomForANewPod> roomForANewPod() {
    return Stream.of(
        new RoomForANewPod(
            "a lender well below its min with all pods bound admits a pod that fits in its min",
            AdmissionTrees.teamLendingToOther(),
            "team",
            10,
            30,
            new Denial(Check.RUNTIME, Reason.EXCEEDS_RUNTIME, "team", "cpu", 40, 10, 0, 31, "")),
        new RoomForANewPod(
            "a borrower in an idle cluster with surplus admits",
            cluster()
                .total(cpu(100))
                .group(quota("team").min(cpu(10)).max(cpu(100)))
                .group(quota("idle").min(cpu(20)).max(cpu(100)))
                .holding("team", cpu(30)),
            "team",
            30,
            70,
            new Denial(Check.RUNTIME, Reason.EXCEEDS_MAX, "team", "cpu", 100, 30, 0, 71, "")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("roomForANewPod")
  void aNewPodMayUseTheRuntimeItsGroupWouldHaveWithIt(RoomForANewPod row) {
    final Cluster cluster = Cluster.of(row.cluster());
    // The computed runtime is exactly the request: no room for anything new as computed.
    assertThat(cluster.runtime(row.group())).isEqualTo(row.runtimeAsComputed());
    assertThat(cluster.asComputed(row.group(), 1).allowed()).isFalse();

    assertThat(cluster.newPod(row.group(), row.largestAdmitted()).allowed()).isTrue();
    assertThat(cluster.newPod(row.group(), row.largestAdmitted() + 1).denials())
        .containsExactly(row.denialOfOneMore());
  }

  @Test
  void aGroupAtItsMaxDenies() {
    final Cluster cluster =
        Cluster.of(
            cluster()
                .total(cpu(100))
                .group(quota("team").min(cpu(10)).max(cpu(30)))
                .holding("team", cpu(30)));

    assertThat(cluster.newPod("team", 1).denials())
        .containsExactly(
            new Denial(Check.RUNTIME, Reason.EXCEEDS_MAX, "team", "cpu", 30, 30, 0, 1, ""));
  }

  @Test
  void aNonLenderAtItsMinBehavesAsBefore() {
    final Cluster cluster =
        Cluster.of(
            cluster()
                .total(cpu(100))
                .group(quota("team").min(cpu(40)).max(cpu(100)).allowLent(false))
                .group(quota("other").min(cpu(60)).max(cpu(100)))
                .holding("team", cpu(10))
                .demand("other", cpu(100)));
    assertThat(cluster.runtime("team")).isEqualTo(40);

    for (long size = 1; size <= 45; size++) {
      assertThat(cluster.newPod("team", size))
          .as("a pod of %d", size)
          .isEqualTo(cluster.asComputed("team", size));
    }
    assertThat(cluster.newPod("team", 30).allowed()).isTrue();
    assertThat(cluster.newPod("team", 31).allowed()).isFalse();
  }

  @Test
  void theWorkedExamplesOfTheComputedCheckHoldForANewPod() {
    // AdmissionCheckTest's tree: team asks more than its max already, so counting a new pod does
    // not move its runtime, and the ancestor case is bounded by dept's max.
    final Cluster tree = Cluster.of(AdmissionTrees.teamInDept());
    final Cluster ancestor = Cluster.of(AdmissionTrees.teamUnderAFullDept());

    assertThat(tree.newPod("team", 5)).isEqualTo(tree.asComputed("team", 5));
    assertThat(tree.newPod("team", 6).denials())
        .containsExactly(
            new Denial(Check.RUNTIME, Reason.EXCEEDS_MAX, "team", "cpu", 45, 40, 0, 6, ""));
    assertThat(ancestor.newPod("team", 3).denials())
        .containsExactly(
            new Denial(Check.RUNTIME, Reason.EXCEEDS_MAX, "dept", "cpu", 20, 18, 0, 3, ""));
  }

  @Test
  void inFlightAdmissionsAreCountedInTheWhatIfAndAgainstIt() {
    final Cluster cluster = Cluster.of(AdmissionTrees.teamLendingToOther());
    final AdmissionDecision first = cluster.newPod("team", 20);
    final InFlight held = InFlight.empty().plus(first.hold().orElseThrow());
    final AdmissionRequest second =
        new AdmissionRequest(new PodRef("ns", "second"), "team", cpu(11), true, Optional.empty());

    // team would ask 10 + 20 + 11 = 41 > its min: it borrows and gets its min of 40 (other takes
    // the rest), which 10 used + 20 in flight + 11 exceed.
    assertThat(cluster.newPod(second, held).denials())
        .containsExactly(
            new Denial(Check.RUNTIME, Reason.EXCEEDS_RUNTIME, "team", "cpu", 40, 10, 20, 11, ""));
    assertThat(
            cluster
                .newPod(
                    new AdmissionRequest(
                        new PodRef("ns", "second"), "team", cpu(10), true, Optional.empty()),
                    held)
                .allowed())
        .isTrue();
  }

  @Test
  void aPodAlreadyCountedIsCheckedAgainstTheRuntimesAsComputed() {
    // The state counts team's pending pods (20) in its request (30): its runtime is 30. A pod the
    // state already counts (the scheduler filter's case) is not added to the request again.
    final Cluster cluster =
        Cluster.of(
            cluster()
                .total(cpu(100))
                .group(quota("team").min(cpu(40)).max(cpu(100)))
                .group(quota("other").min(cpu(60)).max(cpu(100)))
                .holding("team", cpu(10))
                .demand("team", cpu(20))
                .demand("other", cpu(90)));

    for (long size = 1; size <= 35; size++) {
      assertThat(
              AdmissionCheck.check(
                  request("team", size),
                  cluster.state().whatIfInputs(),
                  InFlight.empty(),
                  PodState.COUNTED,
                  cluster.state().options().minScaling()))
          .as("a pod of %d", size)
          .isEqualTo(cluster.asComputed("team", size));
    }
    // Added once more, a pod of 21 would lift team's request to 51 and its bound to 40.
    assertThat(cluster.asComputed("team", 21).allowed()).isFalse();
    assertThat(cluster.newPod("team", 21).allowed()).isTrue();
  }
}
