package io.quotaflow.reservation;

import static io.quotaflow.tree.Fixtures.cpu;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.dra.DeviceSupply;
import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ReservationPolicy;
import io.quotaflow.quota.ReservationSpec;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.QuotaOptions;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One cluster's reservations followed event by event: ages, stability, idle, intruders. */
class ClusterReservationsTest {

  private final Map<PodRef, String> podGroups = new HashMap<>();
  private final Map<String, String> invalidGroups = new HashMap<>();
  private ClusterReservations reservations;

  @BeforeEach
  void fourNodesOfEightCores() {
    reservations = new ClusterReservations(QuotaOptions.DEFAULTS);
    for (int i = 1; i <= 4; i++) {
      reservations.putNode(QuotaNode.healthy("node-" + i, cpu(8_000)));
    }
  }

  private static QuotaGroup reserving(String name, long milli, ReservationPolicy policy) {
    return QuotaGroup.builder(name).reservation(ReservationSpec.of(policy, cpu(milli))).build();
  }

  private Map<String, ReservationStatus> plan(long now) {
    return reservations.plan(
        now,
        pod -> Optional.ofNullable(podGroups.get(pod)),
        group -> Optional.ofNullable(invalidGroups.get(group)));
  }

  private void run(String group, String name, String node, long milli) {
    run(group, name, node, milli, true);
  }

  private void run(String group, String name, String node, long milli, boolean preemptible) {
    final QuotaPod pod =
        QuotaPod.builder("ns", name)
            .quotaName(group)
            .request(cpu(milli))
            .nodeName(node)
            .phase(PodPhase.RUNNING)
            .preemptible(preemptible)
            .build();
    podGroups.put(pod.ref(), group);
    reservations.putPod(pod);
  }

  @Test
  void aReservationLocksNodesCoveringItAndReportsTheIdleOnThem() {
    run("team-b", "b-1", "node-1", 3_000);
    reservations.putGroup(reserving("team-a", 16_000, ReservationPolicy.BEST_EFFORT));

    final ReservationStatus status = plan(1_000).get("team-a");

    assertThat(status.satisfied()).isTrue();
    assertThat(status.valid()).isTrue();
    assertThat(status.reason()).isEmpty();
    // The most idle nodes: node-1 carries team-b's pod.
    assertThat(status.nodes()).containsExactly("node-2", "node-3");
    assertThat(status.idle()).isEqualTo(cpu(16_000));
    assertThat(status.requestedAt()).isEqualTo(1_000);
  }

  @Test
  void theNodeOfDevicesOfSlicesBoundToNoNodeIsNeverLocked() {
    // One node covering the whole reservation: it would be chosen if reservations could lock it.
    reservations.putNode(QuotaNode.healthy(DeviceSupply.UNBOUND_NODE, cpu(16_000)));
    reservations.putGroup(reserving("team-a", 16_000, ReservationPolicy.BEST_EFFORT));

    assertThat(plan(0).get("team-a").nodes()).doesNotContain(DeviceSupply.UNBOUND_NODE).hasSize(2);
  }

  @Test
  void aLockStaysWhilePodsComeAndGoAndOnlyItsIdleFollowsThem() {
    reservations.putGroup(reserving("team-a", 16_000, ReservationPolicy.BEST_EFFORT));
    final List<String> nodes = plan(0).get("team-a").nodes();

    run("team-b", "b-1", nodes.get(0), 5_000);
    run("team-c", "c-1", "node-4", 8_000);
    assertThat(
            reservations
                .refreshIdle(pod -> Optional.ofNullable(podGroups.get(pod)))
                .get("team-a")
                .idle())
        .isEqualTo(cpu(11_000));
    final ReservationStatus replanned = plan(10_000).get("team-a");

    assertThat(replanned.nodes()).isEqualTo(nodes);
    assertThat(replanned.idle()).isEqualTo(cpu(11_000));
    assertThat(replanned.requestedAt()).isZero();
  }

  @Test
  void aLockedNodeThatStopsBeingSchedulableIsReplacedAndTheRestOfTheLockKept() {
    reservations.putGroup(reserving("team-a", 16_000, ReservationPolicy.BEST_EFFORT));
    final List<String> before = plan(0).get("team-a").nodes();

    final String cordoned = before.get(0);
    reservations.putNode(new QuotaNode(cordoned, cpu(8_000), true, false, false, List.of()));
    final List<String> after = plan(1).get("team-a").nodes();

    assertThat(after).hasSize(2).doesNotContain(cordoned).contains(before.get(1));
  }

  @Test
  void aChangedTargetIsDatedAnewAndQueuesBehindOlderReservationsUnderTheCap() {
    reservations.putGroup(reserving("team-a", 8_000, ReservationPolicy.BEST_EFFORT));
    reservations.putGroup(reserving("team-b", 8_000, ReservationPolicy.BEST_EFFORT));
    plan(0);

    // team-a now wants two nodes: with team-b's one that is 24 of 32 cores, above the 50 % cap.
    reservations.putGroup(reserving("team-a", 16_000, ReservationPolicy.BEST_EFFORT));
    final Map<String, ReservationStatus> statuses = plan(5_000);

    assertThat(statuses.get("team-a").requestedAt()).isEqualTo(5_000);
    assertThat(statuses.get("team-a").satisfied()).isFalse();
    assertThat(statuses.get("team-a").reason().orElseThrow()).contains("above 50 %");
    assertThat(statuses.get("team-b").satisfied()).isTrue();
    assertThat(statuses.get("team-b").requestedAt()).isZero();
  }

  @Test
  void aReservationBeyondTheCapSaysWhichDimensionIsShortUnderIt() {
    reservations.putGroup(reserving("team-a", 16_000, ReservationPolicy.BEST_EFFORT));
    reservations.putGroup(reserving("team-b", 8_000, ReservationPolicy.BEST_EFFORT));

    final ReservationStatus status = plan(0).get("team-b");

    assertThat(status.satisfied()).isFalse();
    assertThat(status.reason().orElseThrow())
        .isEqualTo(
            "locking nodes for team-b would take the locked share of the cluster above 50 %"
                + " (cpu 0 left under the cap, 8 wanted)");
  }

  @Test
  void aReservationTheFreeNodesCannotCoverSaysWhichDimensionIsShort() {
    reservations.putGroup(reserving("team-a", 16_000, ReservationPolicy.BEST_EFFORT));
    // Three nodes cordoned: still in the cluster total, but not lockable.
    for (int i = 2; i <= 4; i++) {
      reservations.putNode(new QuotaNode("node-" + i, cpu(8_000), true, false, false, List.of()));
    }

    final ReservationStatus status = plan(0).get("team-a");

    assertThat(status.satisfied()).isFalse();
    assertThat(status.reason().orElseThrow())
        .isEqualTo(
            "the schedulable nodes no other reservation locks cannot cover the reservation of"
                + " team-a: cpu 8 free, 16 wanted");
  }

  @Test
  void aPolicyChangeKeepsTheReservationsAgeAndLock() {
    reservations.putGroup(reserving("team-a", 8_000, ReservationPolicy.BEST_EFFORT));
    final ReservationStatus before = plan(0).get("team-a");

    reservations.putGroup(reserving("team-a", 8_000, ReservationPolicy.GUARANTEED));
    final ReservationStatus after = plan(7_000).get("team-a");

    assertThat(after.policy()).isEqualTo(ReservationPolicy.GUARANTEED);
    assertThat(after.nodes()).isEqualTo(before.nodes());
    assertThat(after.requestedAt()).isZero();
  }

  @Test
  void whenTheCapShrinksTheOldestReservationKeepsItsLock() {
    reservations.putGroup(reserving("young", 8_000, ReservationPolicy.BEST_EFFORT));
    plan(2_000);
    reservations.putGroup(reserving("old", 8_000, ReservationPolicy.BEST_EFFORT));
    // Dated after "young" here; a restart that read it from its store gives its true, older age.
    reservations.restore(
        "old",
        new ReservationStatus(
            ReservationPolicy.BEST_EFFORT,
            true,
            Optional.empty(),
            cpu(8_000),
            0,
            List.of("node-4"),
            true,
            cpu(8_000),
            1_000));
    assertThat(plan(3_000).get("young").nodes()).containsExactly("node-1");

    // Two nodes leave: 50 % of the 16 cores left holds one lock only.
    reservations.removeNode("node-2");
    reservations.removeNode("node-3");
    final Map<String, ReservationStatus> statuses = plan(4_000);

    assertThat(statuses.get("old").nodes()).containsExactly("node-4");
    assertThat(statuses.get("young").satisfied()).isFalse();
  }

  @Test
  void anInvalidGroupLocksNothingAndSaysWhy() {
    reservations.putGroup(reserving("team-a", 8_000, ReservationPolicy.BEST_EFFORT));
    invalidGroups.put("team-a", "min above max in cpu");

    final ReservationStatus status = plan(0).get("team-a");

    assertThat(status.valid()).isFalse();
    assertThat(status.nodes()).isEmpty();
    assertThat(status.reason().orElseThrow())
        .isEqualTo("group team-a is invalid (min above max in cpu): nothing is locked");
  }

  @Test
  void aReservationAboveTheClusterIsInvalidNamingTheDimension() {
    reservations.putGroup(reserving("team-a", 40_000, ReservationPolicy.BEST_EFFORT));

    final ReservationStatus status = plan(0).get("team-a");

    assertThat(status.valid()).isFalse();
    assertThat(status.reason().orElseThrow())
        .contains("reservation-within-cluster")
        .contains("reservation 40 is above the cluster total 32 in cpu");
  }

  @Test
  void removingTheAnnotationReleasesTheLock() {
    reservations.putGroup(reserving("team-a", 8_000, ReservationPolicy.BEST_EFFORT));
    plan(0);

    reservations.putGroup(QuotaGroup.builder("team-a").build());

    assertThat(plan(1)).isEmpty();
    assertThat(reservations.hasReservations()).isFalse();
  }

  @Test
  void aGuaranteedReservationNamesThePreemptiblePodsOfOtherValidGroupsOnItsNodes() {
    reservations.putGroup(reserving("team-a", 8_000, ReservationPolicy.GUARANTEED));
    final String locked = plan(0).get("team-a").nodes().get(0);
    run("team-a", "own", locked, 1_000);
    run("team-b", "intruder", locked, 1_000);
    run("team-b", "kept", locked, 1_000, false);
    run(SpecialGroups.SYSTEM, "daemon", locked, 100);
    run("broken", "frozen", locked, 1_000);
    invalidGroups.put("broken", "min above max");
    run("team-b", "elsewhere", locked.equals("node-1") ? "node-2" : "node-1", 1_000);
    reservations.putPod(
        QuotaPod.builder("ns", "leaving")
            .quotaName("team-b")
            .request(cpu(1_000))
            .nodeName(locked)
            .phase(PodPhase.RUNNING)
            .deletionTime(Instant.EPOCH)
            .build());
    podGroups.put(new PodRef("ns", "leaving"), "team-b");

    final List<Intruder> intruders =
        reservations.intruders(
            pod -> Optional.ofNullable(podGroups.get(pod)),
            group -> Optional.ofNullable(invalidGroups.get(group)));

    assertThat(intruders)
        .singleElement()
        .satisfies(
            intruder -> {
              assertThat(intruder.pod()).isEqualTo(new PodRef("ns", "intruder"));
              assertThat(intruder.group()).isEqualTo("team-b");
              assertThat(intruder.node()).isEqualTo(locked);
              assertThat(intruder.reservingGroup()).isEqualTo("team-a");
            });
  }

  @Test
  void aBestEffortReservationNamesNoIntruder() {
    reservations.putGroup(reserving("team-a", 8_000, ReservationPolicy.BEST_EFFORT));
    final String locked = plan(0).get("team-a").nodes().get(0);
    run("team-b", "guest", locked, 1_000);

    assertThat(
            reservations.intruders(
                pod -> Optional.ofNullable(podGroups.get(pod)), group -> Optional.empty()))
        .isEmpty();
  }

  @Test
  void lockedNodesRefuseOtherGroupsButNotTheOwnerOrTheSystemGroup() {
    reservations.putGroup(reserving("team-a", 8_000, ReservationPolicy.BEST_EFFORT));
    final Map<String, ReservationStatus> statuses = plan(0);
    final String locked = statuses.get("team-a").nodes().get(0);
    final LockedNodes nodes = LockedNodes.of(statuses);

    assertThat(nodes.refusal("team-b", locked).orElseThrow())
        .contains("node " + locked + " is locked by the reservation of quota group team-a");
    assertThat(nodes.refusal("team-a", locked)).isEmpty();
    assertThat(nodes.refusal(SpecialGroups.SYSTEM, locked)).isEmpty();
    assertThat(Set.of("node-1", "node-2", "node-3", "node-4"))
        .filteredOn(node -> !node.equals(locked))
        .allSatisfy(node -> assertThat(nodes.refusal("team-b", node)).isEmpty());
  }
}
