package io.quotaflow.rules;

import static io.quotaflow.tree.Fixtures.cpu;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.quota.Gang;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.reason.Reason;
import io.quotaflow.rules.AdmissionCheck.PodState;
import io.quotaflow.rules.Denial.Check;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.QuotaOptions;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * docs/semantics.md section 21, admission of gangs: a gang's first member is admitted only if the
 * gang's minMember pods fit whole; the room of the others is held for them.
 */
class GangAdmissionTest {

  // team (min 40m) holds 10m and lends the rest to other: a new pod of up to 30m fits.
  private final ClusterQuotaState state = AdmissionTrees.teamLendingToOther().state();

  private static Gang gang(int minMember) {
    return new Gang("g", OptionalInt.of(minMember), "scheduler-plugins");
  }

  private static AdmissionRequest pod(String name, long milliCpu) {
    return new AdmissionRequest(
        new PodRef("ns", name), "team", cpu(milliCpu), true, Optional.empty());
  }

  private GangAdmission.FirstMember first(Gang gang, long milliCpu, int listed, InFlight held) {
    return GangAdmission.first(
        pod("p-0", milliCpu), gang, listed, state.whatIfInputs(), held, QuotaOptions.DEFAULTS);
  }

  private AdmissionDecision alone(AdmissionRequest request, InFlight held) {
    return AdmissionCheck.check(
        request, state.whatIfInputs(), held, PodState.NEW, QuotaOptions.DEFAULTS);
  }

  @Test
  void aFirstMemberWhoseGangCannotFitWholeIsDeniedThoughItFitsAlone() {
    assertThat(alone(pod("p-0", 10), InFlight.empty()).allowed()).isTrue();

    final GangAdmission.FirstMember first = first(gang(4), 10, 0, InFlight.empty());

    // team would ask 10 + 40 = 50 > its min 40: it gets its min, which 10 used + 40 exceed.
    assertThat(first.decision().denials())
        .containsExactly(
            new Denial(
                Check.RUNTIME,
                Reason.EXCEEDS_RUNTIME,
                "team",
                "cpu",
                40,
                10,
                0,
                40,
                "gang g needs 4 pods of cpu 10m"));
    assertThat(first.decision().message())
        .isEqualTo(
            "exceeds-runtime: gang g needs 4 pods of cpu 10m: group team cpu: used 10m + in-flight"
                + " 0 + request 40m > runtime 40m");
    assertThat(first.rest()).isEmpty();
  }

  @Test
  void anAdmittedFirstMemberHoldsItsOwnRequestAndTheRoomOfTheOthers() {
    final GangAdmission.FirstMember first = first(gang(3), 10, 0, InFlight.empty());

    assertThat(first.decision().hold())
        .contains(new InFlight.Hold(new PodRef("ns", "p-0"), List.of("team"), cpu(10), false));
    assertThat(first.rest())
        .contains(new InFlight.Hold(new PodRef("ns", "gang/g"), List.of("team"), cpu(20), false));
  }

  @Test
  void theLargestGangThatFitsIsAdmittedAndOneMoreMemberIsNot() {
    // 10 used + 3 x 10 = 40 = min; 10 + 4 x 7 = 38 fits, 10 + 4 x 8 = 42 does not.
    assertThat(first(gang(3), 10, 0, InFlight.empty()).decision().allowed()).isTrue();
    assertThat(first(gang(4), 7, 0, InFlight.empty()).decision().allowed()).isTrue();
    assertThat(first(gang(4), 8, 0, InFlight.empty()).decision().allowed()).isFalse();
  }

  @Test
  void inFlightAdmissionsCountAgainstTheWholeGang() {
    final InFlight held =
        InFlight.empty()
            .plus(new InFlight.Hold(new PodRef("ns", "other"), List.of("team"), cpu(5), false));

    assertThat(first(gang(3), 10, 0, held).decision().denials())
        .extracting(Denial::inFlight, Denial::request)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(5L, 30L));
  }

  @Test
  void membersTheStateAlreadyListsAreNotAddedToTheRequestAgain() {
    // Taken as listed already, the gang's pods are not added to team's request: its runtime stays
    // at its request of 10, which 10 used + 30 exceed.
    assertThat(first(gang(3), 10, 3, InFlight.empty()).decision().denials())
        .extracting(Denial::limit)
        .containsExactly(10L);
    // Two listed: one more added, team asks 20 and gets it.
    assertThat(first(gang(3), 10, 2, InFlight.empty()).decision().denials())
        .extracting(Denial::limit)
        .containsExactly(20L);
    assertThat(first(gang(3), 10, 0, InFlight.empty()).decision().allowed()).isTrue();
  }

  @Test
  void aLaterMemberTakesItsPartFromTheGangHoldAndIsNotCountedTwice() {
    final GangAdmission.FirstMember first = first(gang(3), 10, 0, InFlight.empty());
    final InFlight.Hold rest = first.rest().orElseThrow();
    final InFlight afterFirst =
        InFlight.empty().plus(first.decision().hold().orElseThrow()).plus(rest);

    // Counted twice (its part in the gang hold and its own request), the member would not fit.
    assertThat(alone(pod("p-1", 10), afterFirst).allowed()).isFalse();

    final InFlight.Hold lessOne = GangAdmission.lessOneMember(rest, cpu(10)).orElseThrow();
    assertThat(lessOne.request()).isEqualTo(cpu(10));
    final AdmissionDecision second = alone(pod("p-1", 10), afterFirst.plus(lessOne));
    assertThat(second.allowed()).isTrue();

    final InFlight afterSecond = afterFirst.plus(lessOne).plus(second.hold().orElseThrow());

    // The third takes the last part: the gang hold is gone.
    assertThat(GangAdmission.lessOneMember(lessOne, cpu(10))).isEmpty();
    final InFlight beforeThird = afterSecond.minus(rest.pod());
    final AdmissionDecision third = alone(pod("p-2", 10), beforeThird);
    assertThat(third.allowed()).isTrue();
    // A fourth pod, beyond minMember, is judged alone: no room is left for it.
    assertThat(alone(pod("p-3", 10), beforeThird.plus(third.hold().orElseThrow())).allowed())
        .isFalse();
  }

  @Test
  void aNonPreemptibleGangMustFitWholeInMinToo() {
    final AdmissionRequest nonPreemptible =
        new AdmissionRequest(new PodRef("ns", "p-0"), "team", cpu(9), false, Optional.empty());

    final GangAdmission.FirstMember first =
        GangAdmission.first(
            nonPreemptible,
            gang(5),
            0,
            state.whatIfInputs(),
            InFlight.empty(),
            QuotaOptions.DEFAULTS);

    final String gang = "gang g needs 5 pods of cpu 9m";
    assertThat(first.decision().denials())
        .containsExactly(
            new Denial(Check.RUNTIME, Reason.EXCEEDS_RUNTIME, "team", "cpu", 40, 10, 0, 45, gang),
            new Denial(
                Check.NON_PREEMPTIBLE_MIN,
                Reason.NON_PREEMPTIBLE_OVER_MIN,
                "team",
                "cpu",
                40,
                0,
                0,
                45,
                gang));
    assertThat(first.decision().denials().get(1).message())
        .isEqualTo(
            "non-preemptible-over-min: gang g needs 5 pods of cpu 9m: group team cpu: used 0 +"
                + " in-flight 0 + request 45m > min (non-preemptible) 40m");
    // Admitted, both holds count against min.
    final GangAdmission.FirstMember fits =
        GangAdmission.first(
            nonPreemptible,
            gang(3),
            0,
            state.whatIfInputs(),
            InFlight.empty(),
            QuotaOptions.DEFAULTS);
    assertThat(fits.decision().hold().orElseThrow().nonPreemptible()).isTrue();
    assertThat(fits.rest().orElseThrow().nonPreemptible()).isTrue();
  }

  @Test
  void aPodWithAProblemIsDeniedForItAsAlone() {
    final AdmissionRequest parent =
        new AdmissionRequest(
            new PodRef("ns", "p-0"), "team", cpu(1), true, Optional.of("a parent group"));

    final GangAdmission.FirstMember first =
        GangAdmission.first(
            parent, gang(3), 0, state.whatIfInputs(), InFlight.empty(), QuotaOptions.DEFAULTS);

    assertThat(first.decision().denials())
        .extracting(Denial::check)
        .containsExactly(Check.NOT_A_LEAF);
    assertThat(first.rest()).isEmpty();
  }

  @Test
  void aGangOfUnknownOrOneMemberIsNotJudgedAsAGang() {
    assertThatThrownBy(
            () ->
                first(
                    new Gang("g", OptionalInt.empty(), "koordinator"), 1_000, 0, InFlight.empty()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> first(gang(1), 1_000, 0, InFlight.empty()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void timesSaturatesLikePlus() {
    assertThat(GangAdmission.times(ResourceList.of("cpu", 3, "memory", Long.MAX_VALUE / 2), 3))
        .isEqualTo(ResourceList.of("cpu", 9, "memory", Long.MAX_VALUE));
  }
}
