package io.quotaflow.admission.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.admission.inflight.ClusterAdmissions;
import io.quotaflow.admission.inflight.ClusterAdmissions.Occasion;
import io.quotaflow.admission.inflight.InFlightHolds;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.rules.AdmissionDecision;
import io.quotaflow.rules.AdmissionRequest;
import io.quotaflow.tree.QuotaOptions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** When an admitted pod's in-flight hold is released (SPEC 10). */
class InFlightHoldLifecycleTest {

  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

  private SnapshotClusterState state = TestClusters.state();
  private final ClusterAdmissions admissions =
      new ClusterAdmissions("east", Duration.ofSeconds(30));

  private ClusterView view() {
    return state.cluster("east").orElseThrow();
  }

  private AdmissionDecision admit(String name, long milliCpu, Instant at) {
    final QuotaPod pod =
        QuotaPod.builder("alpha", name).request(ResourceList.of("cpu", milliCpu)).build();
    final AdmissionRequest request =
        AdmissionRequest.of(pod, view().directory(), QuotaOptions.DEFAULTS);
    return admissions.decide(request, view(), QuotaOptions.DEFAULTS, at, Occasion.CREATE);
  }

  @Test
  void aHoldExpiresAfterItsTimeToLive() {
    final long room = TestClusters.room(state, "team-a");
    assertThat(admit("first", room, T0).allowed()).isTrue();
    assertThat(admit("second", 1, T0.plusSeconds(29)).allowed()).isFalse();

    assertThat(admit("third", room, T0.plusSeconds(30)).allowed()).isTrue();
  }

  @Test
  void aHoldIsReleasedOnceThePodIsSeenUsedInTwoSweeps() {
    final long room = TestClusters.room(state, "team-a");
    assertThat(admit("first", room, T0).allowed()).isTrue();
    assertThat(admissions.sweep(view(), T0.plusMillis(250))).isEqualTo(1);

    // The engine sees the pod bound: used grows by its request, and the pod is listed.
    state =
        TestClusters.state(
            TestClusters.east().pod(TestClusters.running("alpha", "first", "team-a", room)));
    assertThat(admissions.sweep(view(), T0.plusMillis(500))).isEqualTo(1);
    assertThat(admissions.sweep(view(), T0.plusMillis(750))).isZero();

    assertThat(admissions.holds(new PodRef("alpha", "first"))).isFalse();
    assertThat(admit("second", 1, T0.plusSeconds(1)).allowed()).isFalse();
  }

  @Test
  void aPendingPodKeepsItsHold() {
    final long room = TestClusters.room(state, "team-a");
    assertThat(admit("first", room, T0).allowed()).isTrue();
    state =
        TestClusters.state(
            TestClusters.east()
                .pod(
                    QuotaPod.builder("alpha", "first")
                        .quotaName("team-a")
                        .request(ResourceList.of("cpu", room))
                        .build()));

    admissions.sweep(view(), T0.plusMillis(250));
    admissions.sweep(view(), T0.plusMillis(500));

    assertThat(admissions.holds(new PodRef("alpha", "first"))).isTrue();
  }

  /**
   * Issue 26: a cluster that moves here (or an instance that restarts) takes up the holds of the
   * pods its earlier owner admitted and that are still pending, so their room is not granted twice;
   * they are judged again in creation order, so a pending pod that never fitted holds nothing, and
   * a pod past the time to live or a terminating one is not held again.
   */
  @Test
  void anInstanceTakingTheClusterOverHoldsThePendingPodsAdmittedBefore() {
    final long room = TestClusters.room(state, "team-a");
    state =
        TestClusters.state(
            TestClusters.east()
                .pod(pending("admitted-there", room, T0.minusSeconds(5)))
                // Created after it, with no room left: the webhook would not have admitted it.
                .pod(pending("no-room-left", room, T0.minusSeconds(4)))
                .pod(pending("long-pending", room, T0.minusSeconds(31)))
                .pod(
                    QuotaPod.builder("alpha", "leaving")
                        .quotaName("team-a")
                        .request(ResourceList.of("cpu", room))
                        .creationTime(T0.minusSeconds(1))
                        .deletionTime(T0)
                        .build()));
    final InFlightHolds holds = new InFlightHolds(Duration.ofSeconds(30));

    final ClusterAdmissions owned =
        holds.owned("east", view(), QuotaOptions.DEFAULTS, Set.of(), T0);

    assertThat(owned.held()).isEqualTo(1);
    assertThat(owned.holds(new PodRef("alpha", "admitted-there"))).isTrue();
    assertThat(owned.heldAt("team-a").get(0).expiresAt()).isEqualTo(T0.plusSeconds(25));
    // Without the adopted hold, a pod of 1 milli-CPU fits (the pending pods are not used yet).
    assertThat(decide(admissions, "next", 1, T0).allowed()).isTrue();
    assertThat(decide(owned, "next", 1, T0).allowed()).isFalse();
    // Once the earlier owner's hold would have expired, the room is free again.
    assertThat(decide(owned, "later", 1, T0.plusSeconds(25)).allowed()).isTrue();
    assertThat(holds.owned("east", view(), QuotaOptions.DEFAULTS, Set.of(), T0)).isSameAs(owned);
  }

  /**
   * A task restoring after a rebalance reads its cluster as unknown for a while. The holds made
   * before stay: dropping them granted the same room twice once the state was back (a CI failure of
   * AdmissionEngineIT). A cluster that stays unknown loses them at their time to live.
   */
  @Test
  void aClusterUnknownForAWhileKeepsItsHoldsUntilTheirTimeToLive() {
    final InFlightHolds holds = new InFlightHolds(Duration.ofSeconds(30));
    final long room = TestClusters.room(state, "team-a");
    assertThat(
            decide(
                    holds.owned("east", view(), QuotaOptions.DEFAULTS, Set.of(), T0),
                    "first",
                    room,
                    T0)
                .allowed())
        .isTrue();
    final SnapshotClusterState known = state;
    final SnapshotClusterState restoring = new SnapshotClusterState();

    holds.sweep(restoring, Clock.fixed(T0.plusSeconds(1), ZoneOffset.UTC));
    holds.sweep(known, Clock.fixed(T0.plusSeconds(2), ZoneOffset.UTC));

    final ClusterAdmissions again =
        holds.owned("east", view(), QuotaOptions.DEFAULTS, Set.of(), T0);
    assertThat(again.holds(new PodRef("alpha", "first"))).isTrue();
    assertThat(decide(again, "second", 1, T0.plusSeconds(2)).allowed()).isFalse();

    holds.sweep(restoring, Clock.fixed(T0.plusSeconds(30), ZoneOffset.UTC));
    assertThat(holds.find("east")).isEmpty();
  }

  /**
   * Issue 40.10: while the owner named by Kafka Streams is unreachable (its breaker open), this
   * instance answers for its cluster and keeps what it admitted; once the owner answers again they
   * are dropped here, the owner deciding again.
   */
  @Test
  void theHoldsOfAClusterWhoseOwnerIsUnreachableStayUntilItAnswersAgain() {
    final InFlightHolds holds = new InFlightHolds(Duration.ofSeconds(30));
    final long room = TestClusters.room(state, "team-a");
    assertThat(
            decide(
                    holds.owned("east", view(), QuotaOptions.DEFAULTS, Set.of(), T0),
                    "first",
                    room,
                    T0)
                .allowed())
        .isTrue();
    final SnapshotClusterState elsewhere =
        new SnapshotClusterState().remote("east", "10.0.0.9", 8443);

    holds.sweep(elsewhere, Clock.fixed(T0.plusSeconds(1), ZoneOffset.UTC), peer -> false);

    assertThat(holds.find("east")).as("kept while the owner is unreachable").isPresent();
    assertThat(holds.find("east").get().holds(new PodRef("alpha", "first"))).isTrue();

    holds.sweep(elsewhere, Clock.fixed(T0.plusSeconds(6), ZoneOffset.UTC), peer -> true);

    assertThat(holds.find("east")).as("dropped once it answers").isEmpty();
  }

  /**
   * Issue 40.10, three instances: the owner is reachable from here as far as this instance knows
   * (it never asked it), but the others forward reviews here, the standby: while they keep coming,
   * the holds stay; 5 s after the last, they are dropped as for a cluster that moved away.
   */
  @Test
  void theHoldsOfAClusterAnsweredHereForOthersStayWhileItIsAnswered() {
    final InFlightHolds holds = new InFlightHolds(Duration.ofSeconds(30));
    final long room = TestClusters.room(state, "team-a");
    assertThat(
            decide(
                    holds.owned("east", view(), QuotaOptions.DEFAULTS, Set.of(), T0),
                    "first",
                    room,
                    T0)
                .allowed())
        .isTrue();
    final SnapshotClusterState elsewhere =
        new SnapshotClusterState().remote("east", "10.0.0.9", 8443);

    holds.sweep(elsewhere, Clock.fixed(T0.plusSeconds(4), ZoneOffset.UTC), peer -> true);
    assertThat(holds.find("east")).as("decided here 4 s ago").isPresent();

    holds.sweep(elsewhere, Clock.fixed(T0.plusSeconds(5), ZoneOffset.UTC), peer -> true);
    assertThat(holds.find("east")).as("nothing decided here for 5 s").isEmpty();
  }

  private static QuotaPod pending(String name, long milliCpu, Instant created) {
    return QuotaPod.builder("alpha", name)
        .quotaName("team-a")
        .request(ResourceList.of("cpu", milliCpu))
        .creationTime(created)
        .build();
  }

  private AdmissionDecision decide(ClusterAdmissions on, String name, long milliCpu, Instant at) {
    final QuotaPod pod =
        QuotaPod.builder("alpha", name).request(ResourceList.of("cpu", milliCpu)).build();
    final AdmissionRequest request =
        AdmissionRequest.of(pod, view().directory(), QuotaOptions.DEFAULTS);
    return on.decide(request, view(), QuotaOptions.DEFAULTS, at, Occasion.CREATE);
  }

  @Test
  void aRecheckDoesNotCountThePodAgainstItself() {
    final long room = TestClusters.room(state, "team-a");
    assertThat(admit("first", room, T0).allowed()).isTrue();
    final QuotaPod pod =
        QuotaPod.builder("alpha", "first").request(ResourceList.of("cpu", room)).build();
    final AdmissionRequest request =
        AdmissionRequest.of(pod, view().directory(), QuotaOptions.DEFAULTS);

    final AdmissionDecision again =
        admissions.decide(
            request, view(), QuotaOptions.DEFAULTS, T0.plusSeconds(1), Occasion.SCHEDULE);

    assertThat(again.allowed()).isTrue();
    assertThat(admissions.held()).isEqualTo(1);
    assertThat(Optional.of(admissions.holds(pod.ref()))).contains(true);
  }
}
