package io.quotaflow.admission.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.inflight.ClusterAdmissions;
import io.quotaflow.admission.inflight.ClusterAdmissions.Occasion;
import io.quotaflow.admission.inflight.InFlightHolds;
import io.quotaflow.admission.machine.PodCheck;
import io.quotaflow.admission.people.view.RecentActivity;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.kube.GangConventions;
import io.quotaflow.quota.Gang;
import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.Quantities;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.reason.Reason;
import io.quotaflow.rules.AdmissionDecision;
import io.quotaflow.rules.AdmissionRequest;
import io.quotaflow.tree.QuotaOptions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docs/semantics.md section 21, admission of gangs, in the plugin: a gang's first member is
 * admitted only if the whole gang fits, the room of the others is then held for them, each later
 * member takes its part, and the hold goes when the last part is taken or its time to live passes.
 */
class GangAdmissionsTest {

  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  private static final Duration GANG_TTL = Duration.ofSeconds(60);

  private SnapshotClusterState state = TestClusters.state();
  private final ClusterAdmissions admissions =
      new ClusterAdmissions("east", Duration.ofSeconds(30), GANG_TTL);
  // team-a's room for new pods (5 cores in east) and a member's request: three fit, four do not.
  private long room;
  private long member;

  @BeforeEach
  void sizes() {
    room = TestClusters.room(state, "team-a");
    member = room / 3;
    assertThat(3 * member).isLessThanOrEqualTo(room);
    assertThat(4 * member).isGreaterThan(room);
  }

  private ClusterView view() {
    return state.cluster("east").orElseThrow();
  }

  private static Gang gang(int minMember) {
    return new Gang("g", OptionalInt.of(minMember), "scheduler-plugins");
  }

  private static QuotaPod pod(String name, long milliCpu, Gang gang) {
    return QuotaPod.builder("alpha", name)
        .quotaName("team-a")
        .request(ResourceList.of("cpu", milliCpu))
        .gang(gang)
        .build();
  }

  private AdmissionDecision decide(QuotaPod pod, Instant at, Occasion occasion) {
    final AdmissionRequest request =
        AdmissionRequest.of(pod, view().directory(), QuotaOptions.DEFAULTS);
    return admissions.decide(request, pod.gang(), view(), QuotaOptions.DEFAULTS, at, occasion);
  }

  private AdmissionDecision create(QuotaPod pod, Instant at) {
    return decide(pod, at, Occasion.CREATE);
  }

  private AdmissionDecision alone(String name, long milliCpu, Instant at) {
    return create(
        QuotaPod.builder("alpha", name).request(ResourceList.of("cpu", milliCpu)).build(), at);
  }

  @Test
  void aFirstMemberIsDeniedWhenItsGangCannotFitWholeThoughItFitsAlone() {
    final AdmissionDecision first = create(pod("g-0", member, gang(4)), T0);

    assertThat(first.allowed()).isFalse();
    assertThat(first.denials()).extracting(denial -> denial.reason()).contains(Reason.EXCEEDS_MAX);
    assertThat(first.message())
        .startsWith("exceeds-max: gang g needs 4 pods of cpu " + Quantities.format("cpu", member))
        .contains("request " + Quantities.format("cpu", 4 * member));
    assertThat(admissions.held()).isZero();
    // Judged alone, the same pod fits: capacity admission would have let it in.
    assertThat(alone("alone", member, T0).allowed()).isTrue();
  }

  @Test
  void anAdmittedFirstMemberHoldsTheRoomOfTheOthers() {
    assertThat(create(pod("g-0", member, gang(3)), T0).allowed()).isTrue();

    assertThat(admissions.heldAt("team-a"))
        .extracting(ClusterAdmissions.Held::pod, ClusterAdmissions.Held::request)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                new PodRef("alpha", "g-0"), ResourceList.of("cpu", member)),
            org.assertj.core.groups.Tuple.tuple(
                new PodRef("alpha", "gang/g"), ResourceList.of("cpu", 2 * member)));
    // What is left beside the whole gang, and not a milli-cpu more.
    final long left = room - 3 * member;
    assertThat(alone("other", left + 1, T0).allowed()).isFalse();
    assertThat(alone("other", left, T0).allowed()).isTrue();
  }

  @Test
  void laterMembersAreAdmittedAgainstTheHoldAndOneBeyondMinMemberIsJudgedAlone() {
    assertThat(create(pod("g-0", member, gang(3)), T0).allowed()).isTrue();
    // Fill what is left beside the gang, so that only the gang's hold has room.
    assertThat(alone("other", room - 3 * member, T0).allowed()).isTrue();

    assertThat(create(pod("g-1", member, gang(3)), T0.plusSeconds(1)).allowed()).isTrue();
    assertThat(admissions.holds(new PodRef("alpha", "gang/g"))).isTrue();
    assertThat(create(pod("g-2", member, gang(3)), T0.plusSeconds(2)).allowed()).isTrue();

    // The last part taken, the gang's hold is gone; a fourth member has no room of its own.
    assertThat(admissions.holds(new PodRef("alpha", "gang/g"))).isFalse();
    assertThat(admissions.held()).isEqualTo(4);
    assertThat(create(pod("g-3", member, gang(3)), T0.plusSeconds(3)).allowed()).isFalse();
  }

  @Test
  void aDryRunOfALaterMemberTakesNothingFromTheHold() {
    assertThat(create(pod("g-0", member, gang(3)), T0).allowed()).isTrue();

    assertThat(decide(pod("g-1", member, gang(3)), T0, Occasion.DRY_RUN).allowed()).isTrue();
    assertThat(decide(pod("g-1", member, gang(3)), T0, Occasion.DRY_RUN).allowed()).isTrue();

    assertThat(admissions.heldAt("team-a"))
        .extracting(ClusterAdmissions.Held::request)
        .containsExactly(ResourceList.of("cpu", member), ResourceList.of("cpu", 2 * member));
  }

  @Test
  void theGangsHoldIsReleasedWhenItsTimeToLivePasses() {
    assertThat(create(pod("g-0", member, gang(3)), T0).allowed()).isTrue();

    // The first member's own hold is gone at 30 s; the gang's room stays held until 60 s.
    admissions.sweep(view(), T0.plusSeconds(45));
    assertThat(admissions.held()).isEqualTo(1);
    assertThat(alone("other", room - 2 * member + 1, T0.plusSeconds(45)).allowed()).isFalse();

    assertThat(admissions.sweep(view(), T0.plus(GANG_TTL))).isZero();
    assertThat(alone("other", room, T0.plus(GANG_TTL)).allowed()).isTrue();
  }

  @Test
  void theGangsHoldSurvivesSweepsAsHoldsDo() {
    assertThat(create(pod("g-0", member, gang(3)), T0).allowed()).isTrue();
    // The engine sees the first member bound: its own hold goes after two sweeps, the gang's stays.
    state =
        TestClusters.state(
            TestClusters.east()
                .pod(
                    QuotaPod.builder("alpha", "g-0")
                        .quotaName("team-a")
                        .request(ResourceList.of("cpu", member))
                        .phase(PodPhase.RUNNING)
                        .nodeName("node-1")
                        .gang(gang(3))
                        .build()));

    admissions.sweep(view(), T0.plusMillis(250));
    admissions.sweep(view(), T0.plusMillis(500));

    assertThat(admissions.holds(new PodRef("alpha", "g-0"))).isFalse();
    assertThat(admissions.holds(new PodRef("alpha", "gang/g"))).isTrue();
    assertThat(create(pod("g-1", member, gang(3)), T0.plusSeconds(1)).allowed()).isTrue();
  }

  @Test
  void aGangWhoseMinMemberIsUnknownIsJudgedPodByPod() {
    final Gang unknown = new Gang("g", OptionalInt.empty(), "koordinator");

    assertThat(create(pod("g-0", 2 * member, unknown), T0).allowed()).isTrue();

    assertThat(admissions.held()).isEqualTo(1);
  }

  @Test
  void theSchedulerFilterJudgesAGangsFirstPlacementWhole() {
    // Created past the webhook: the gang's three pods are pending in the state, none held.
    state = withPending(gang(4), 4);
    final AdmissionDecision first = decide(pod("g-0", member, gang(4)), T0, Occasion.SCHEDULE);
    assertThat(first.allowed()).isFalse();
    assertThat(first.message()).contains("gang g needs 4 pods");

    state = withPending(gang(3), 3);
    assertThat(decide(pod("g-0", member, gang(3)), T0, Occasion.SCHEDULE).allowed()).isTrue();
    assertThat(admissions.holds(new PodRef("alpha", "gang/g"))).isTrue();
    // Placed again, the first member is judged alone against its own hold: no second gang hold.
    assertThat(decide(pod("g-0", member, gang(3)), T0, Occasion.SCHEDULE).allowed()).isTrue();
    assertThat(decide(pod("g-1", member, gang(3)), T0, Occasion.SCHEDULE).allowed()).isTrue();
    assertThat(decide(pod("g-2", member, gang(3)), T0, Occasion.SCHEDULE).allowed()).isTrue();
    assertThat(admissions.holds(new PodRef("alpha", "gang/g"))).isFalse();
    assertThat(admissions.held()).isEqualTo(3);
  }

  @Test
  void aMemberHeldBeforeItsGangWasKnownIsJudgedWithItsGangWhenPlacedAgain() {
    // Four members pending: the whole gang does not fit. Its PodGroup not read yet when g-0 was
    // first placed, g-0 was judged alone and held.
    state = withPending(gang(4), 4);
    final Gang unknown = new Gang("g", OptionalInt.empty(), "scheduler-plugins");
    assertThat(decide(pod("g-0", member, unknown), T0, Occasion.SCHEDULE).allowed()).isTrue();
    assertThat(admissions.holds(new PodRef("alpha", "g-0"))).isTrue();

    // Placed again once the gang is known, it is its gang's first placement: judged whole, not
    // alone on the strength of its own earlier hold.
    final AdmissionDecision again =
        decide(pod("g-0", member, gang(4)), T0.plusSeconds(1), Occasion.SCHEDULE);
    assertThat(again.allowed()).as(again.message()).isFalse();
    assertThat(again.message()).contains("gang g needs 4 pods");
    assertThat(admissions.holds(new PodRef("alpha", "gang/g"))).isFalse();
  }

  @Test
  void aFirstMemberPlacedAgainAfterItsGangsHoldExpiredHoldsTheGangsRoomAgain() {
    state = withPending(gang(3), 3);
    assertThat(decide(pod("g-0", member, gang(3)), T0, Occasion.SCHEDULE).allowed()).isTrue();
    // Placed again before the others came: its own hold renewed each time, the gang's lapses.
    final Instant later = T0.plus(GANG_TTL).plusSeconds(1);
    assertThat(decide(pod("g-0", member, gang(3)), T0.plusSeconds(20), Occasion.SCHEDULE).allowed())
        .isTrue();
    assertThat(decide(pod("g-0", member, gang(3)), T0.plusSeconds(40), Occasion.SCHEDULE).allowed())
        .isTrue();
    admissions.sweep(view(), later);
    assertThat(admissions.holds(new PodRef("alpha", "gang/g"))).isFalse();
    assertThat(admissions.holds(new PodRef("alpha", "g-0"))).isTrue();

    // The gang's first placement still: the whole gang is judged, and its room held again.
    assertThat(decide(pod("g-0", member, gang(3)), later, Occasion.SCHEDULE).allowed()).isTrue();
    assertThat(admissions.holds(new PodRef("alpha", "gang/g"))).isTrue();
    assertThat(admissions.heldAt("team-a"))
        .extracting(ClusterAdmissions.Held::request)
        .containsExactlyInAnyOrder(
            ResourceList.of("cpu", member), ResourceList.of("cpu", 2 * member));
  }

  @Test
  void aGangWithAMemberBoundAlreadyIsJudgedPodByPod() {
    // One member runs: this is no first placement, and the next is judged alone.
    final QuotaPod running =
        QuotaPod.builder("alpha", "g-0")
            .quotaName("team-a")
            .request(ResourceList.of("cpu", member))
            .phase(PodPhase.RUNNING)
            .nodeName("node-1")
            .gang(gang(8))
            .build();
    state = TestClusters.state(TestClusters.east().pod(running));

    assertThat(create(pod("g-1", member, gang(8)), T0).allowed()).isTrue();
    assertThat(admissions.holds(new PodRef("alpha", "gang/g"))).isFalse();
  }

  /** The pod webhook and the scheduler filter share PodCheck, which hands the pod's gang on. */
  @Test
  void bothEndpointsCheckAPodWithItsGang() {
    final RecentActivity activity = new RecentActivity(10);
    final InFlightHolds holds = new InFlightHolds(Duration.ofSeconds(30), GANG_TTL);
    final PodCheck check =
        new PodCheck(
            PluginConfig.plainHttpOnLoopback(0),
            QuotaOptions.DEFAULTS,
            holds,
            Clock.fixed(T0, ZoneOffset.UTC),
            activity);

    final PodCheck.Verdict denied =
        check.check("east", pod("g-0", member, gang(4)), view(), Occasion.CREATE);
    assertThat(denied.outcome()).isEqualTo(PodCheck.Outcome.DENIED);
    assertThat(denied.message()).contains("gang g needs 4 pods");
    assertThat(activity.denials("east"))
        .singleElement()
        .satisfies(denial -> assertThat(denial.reason()).contains("gang g needs 4 pods"));

    final PodCheck.Verdict scheduled =
        check.check("east", pod("g-0", member, gang(3)), view(), Occasion.SCHEDULE);
    assertThat(scheduled.outcome()).isEqualTo(PodCheck.Outcome.ALLOWED);
    assertThat(holds.find("east").orElseThrow().holds(new PodRef("alpha", "gang/g"))).isTrue();
  }

  /**
   * Over HTTP, the gang read from the pod's Koordinator annotations, as kube-scheduler sends it.
   */
  @Test
  void theSchedulerFilterReadsTheGangFromThePodAndRefusesEveryNodeToAGangThatCannotFit() {
    state = withPending(gang(4), 4);
    try (Plugin plugin = Plugin.start(state)) {
      final Plugin.Reply reply =
          plugin.post(
              "/clusters/east/scheduler/filter",
              Reviews.filterArgsWithNames(
                  Reviews.pod("alpha", "g-0")
                      .cpu(member + "m")
                      .annotation(GangConventions.KOORDINATOR_NAME, "g")
                      .annotation(GangConventions.KOORDINATOR_MIN_AVAILABLE, "4"),
                  "n1",
                  "n2"));

      assertThat(reply.status()).as(reply.body()).isEqualTo(200);
      assertThat(reply.json().get("FailedAndUnresolvableNodes").path("n1").asText())
          .as(reply.body())
          .contains("gang g needs 4 pods of cpu " + Quantities.format("cpu", member));
    }
  }

  /** The pod webhook reads the gang from the pod's annotations in the AdmissionReview. */
  @Test
  void thePodWebhookDeniesTheFirstMemberOfAGangThatCannotFitAndHoldsForOneThatFits() {
    try (Plugin plugin = Plugin.start(state)) {
      final JsonNode denied =
          plugin
              .post(
                  "/clusters/east/admission/pods", Reviews.createPod("u-1", member("g-0", "g", 4)))
              .json()
              .get("response");
      assertThat(denied.get("allowed").asBoolean()).isFalse();
      // The example of docs/admission.md.
      assertThat(member).isEqualTo(1_666);
      assertThat(denied.get("status").get("message").asText())
          .isEqualTo(
              "quotaflow: pod alpha/g-0 does not fit quota group team-a: exceeds-max: gang g needs"
                  + " 4 pods of cpu 1666m: group team-a cpu: used 1 + in-flight 0 + request 6664m"
                  + " > runtime 6");

      final JsonNode admitted =
          plugin
              .post(
                  "/clusters/east/admission/pods", Reviews.createPod("u-2", member("h-0", "h", 3)))
              .json()
              .get("response");
      assertThat(admitted.get("allowed").asBoolean()).isTrue();
      assertThat(plugin.server().holds().of("east").holds(new PodRef("alpha", "gang/h"))).isTrue();
    }
  }

  private Reviews.PodJson member(String name, String gang, int minMember) {
    return Reviews.pod("alpha", name)
        .cpu(member + "m")
        .annotation(GangConventions.KOORDINATOR_NAME, gang)
        .annotation(GangConventions.KOORDINATOR_MIN_AVAILABLE, Integer.toString(minMember));
  }

  private SnapshotClusterState withPending(Gang gang, int members) {
    var cluster = TestClusters.east();
    for (final String name : List.of("g-0", "g-1", "g-2", "g-3").subList(0, members)) {
      cluster = cluster.pod(pod(name, member, gang));
    }
    return TestClusters.state(cluster);
  }
}
