package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.cordoned;
import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.node;
import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.quotaflow.config.QuotaSettings;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.reservation.ReservationStatus;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.GroupReservation;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.ReservationPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Node reservations through the topology (docs/semantics.md section 14): locks follow quota, node
 * and pod events and the relock interval, the state goes on the runtime record and into the
 * queryable reservations store, and a Guaranteed reservation has the pods of other groups on its
 * nodes evicted after the revoke delay. The scene: four 8-cpu nodes n1..n4; team-b runs b1 on n1;
 * the locked-share cap is lifted (100 %) except where a test is about it.
 */
class ReservationTopologyTest {
  private static final String EAST = "east";
  private static final String NS = "apps";
  private static final Duration CHECK = Duration.ofSeconds(1);
  private static final Duration DELAY = Duration.ofSeconds(120);

  @AutoClose private EngineDriver engine;

  @BeforeEach
  void fourNodesAndTwoTeams() {
    start(100);
  }

  private void start(final int cap) {
    if (engine != null) {
      engine.close();
    }
    engine =
        new EngineDriver(
            EngineConfig.builder()
                .set(QuotaSettings.RESERVATION_MAX_LOCKED_PERCENT.key(), Integer.toString(cap))
                .set(EngineSettings.INPUTS_MARKERS_REQUIRED.key(), "false")
                .build());
    for (int i = 1; i <= 4; i++) {
      engine.putNode(EAST, "n" + i, node(8_000));
    }
    engine
        .putQuota(EAST, "team-a", quota().max(cpu(32_000)).build())
        .putQuota(EAST, "team-b", quota().max(cpu(32_000)).build())
        .putPod(EAST, NS, pod("b1").group("team-b").running("n1").cpu(2_000))
        .recompute();
  }

  private void reserve(final long milli, final ReservationPolicy policy) {
    engine
        .putQuota(EAST, "team-a", quota().max(cpu(32_000)).reserve(cpu(milli), policy).build())
        .recompute();
  }

  private GroupReservation reservation() {
    return engine.reservation(EAST, "team-a").orElseThrow();
  }

  @Test
  void aReservationAddedToAGroupLocksNodesAndItsRuntimeRecordSaysWhich() {
    reserve(16_000, ReservationPolicy.BEST_EFFORT);

    final GroupReservation reservation = reservation();
    // The most idle nodes first: n1 runs team-b's pod.
    assertThat(reservation.getNodes()).containsExactly("n2", "n3");
    assertThat(reservation.getSatisfied()).isTrue();
    assertThat(reservation.getIdle()).isEqualTo(Map.of("cpu", 16_000L));
    assertThat(reservation.getRequestedAt()).isEqualTo(engine.now());
    assertThat(engine.reservation(EAST, "team-b")).isEmpty();
    assertThat(engine.queries().reservations(EAST)).containsOnlyKeys("team-a");
    assertThat(engine.queries().reservation(EAST, "team-a").map(ReservationStatus::nodes))
        .contains(List.of("n2", "n3"));
  }

  @Test
  void beyondTheDefaultCapOfHalfTheClusterAReservationIsNotSatisfiedAndSaysWhy() {
    start(50);

    reserve(24_000, ReservationPolicy.GUARANTEED);

    assertThat(reservation().getSatisfied()).isFalse();
    assertThat(reservation().getNodes()).isEmpty();
    assertThat(reservation().getReason())
        .hasValueSatisfying(reason -> assertThat(reason).contains("above 50 %"));
    engine.advance(DELAY.plus(Duration.ofSeconds(5)));
    assertThat(engine.evictionRecords()).isEmpty();
  }

  @Test
  void aLockedNodeThatIsCordonedOrDeletedIsReplacedKeepingTheRest() {
    reserve(16_000, ReservationPolicy.BEST_EFFORT);

    engine.putNode(EAST, "n2", cordoned(8_000)).recompute();
    assertThat(reservation().getNodes()).containsExactly("n3", "n4");

    engine.deleteNode(EAST, "n4").recompute();
    assertThat(reservation().getNodes()).containsExactly("n1", "n3");
    assertThat(reservation().getIdle()).isEqualTo(Map.of("cpu", 14_000L));
  }

  @Test
  void podEventsMoveNoLockButTheIdleOnItsNodes() {
    reserve(16_000, ReservationPolicy.BEST_EFFORT);
    engine.runtimeRecords();

    engine.putPod(EAST, NS, pod("a1").group("team-a").running("n2").cpu(3_000)).recompute();

    assertThat(reservation().getNodes()).containsExactly("n2", "n3");
    assertThat(reservation().getIdle()).isEqualTo(Map.of("cpu", 13_000L));
    engine.putPod(EAST, NS, pod("b2").group("team-b").running("n4").cpu(8_000)).recompute();
    assertThat(engine.emittedGroups(EAST)).doesNotContain("team-a");
  }

  @Test
  void theRelockIntervalPlansEveryFollowedClusterAgainWithoutAnyInput() {
    reserve(16_000, ReservationPolicy.BEST_EFFORT);
    final long plans = plans(engine.metrics());
    engine.runtimeRecords();

    engine.advance(Duration.ofSeconds(10)).recompute();

    assertThat(plans(engine.metrics())).isGreaterThan(plans);
    assertThat(engine.emittedGroups(EAST)).as("a lock that still covers does not move").isEmpty();
  }

  @Test
  void aClusterWithoutReservationsIsNeverPlanned() {
    engine.advance(Duration.ofSeconds(30)).recompute();

    assertThat(plans(engine.metrics())).isZero();
    assertThat(engine.queries().reservations(EAST)).isEmpty();
  }

  @Test
  void removingTheAnnotationReleasesTheLockAndTheRecordLosesTheReservation() {
    reserve(16_000, ReservationPolicy.BEST_EFFORT);

    engine.putQuota(EAST, "team-a", quota().max(cpu(32_000)).build()).recompute();

    assertThat(engine.reservation(EAST, "team-a")).isEmpty();
    assertThat(engine.queries().reservations(EAST)).isEmpty();
  }

  @Test
  void anUnreadableAnnotationMakesTheReservationInvalidWithoutTouchingTheQuota() {
    engine
        .putQuota(
            EAST,
            "team-a",
            quota().max(cpu(32_000)).unreadableReservation("\"{\" is not JSON").build())
        .recompute();

    assertThat(reservation().getValid()).isFalse();
    assertThat(reservation().getReason())
        .hasValueSatisfying(r -> assertThat(r).contains("is not JSON"));
    assertThat(reservation().getNodes()).isEmpty();
    assertThat(engine.group(EAST, "team-a").valid()).isTrue();
    assertThat(engine.group(EAST, "team-a").max()).isEqualTo(ResourceList.of("cpu", 32_000));
  }

  @Test
  void aGuaranteedReservationEvictsThePodsOfOtherGroupsOnItsNodesAfterTheRevokeDelay() {
    // team-a already uses n1, where team-b's b1 runs too: the lock takes n1 first.
    engine.putPod(EAST, NS, pod("a0").group("team-a").running("n1").cpu(1_000));
    reserve(16_000, ReservationPolicy.GUARANTEED);
    assertThat(reservation().getNodes()).containsExactly("n1", "n2");

    engine.advance(CHECK);
    engine.advance(DELAY.minus(CHECK));
    assertThat(engine.evictionRecords()).as("before the revoke delay").isEmpty();
    engine.advance(CHECK);

    final List<TestRecord<PodKey, EvictionCommand>> commands = engine.evictionRecords();
    assertThat(commands).extracting(record -> record.key().getName()).containsExactly("b1");
    final EvictionCommand command = commands.get(0).value();
    assertThat(command.getGroup()).isEqualTo("team-b");
    assertThat(command.getDimensionsOver()).isEmpty();
    assertThat(command.getReason())
        .contains(
            "Node n1 of cluster east is locked by the Guaranteed reservation of quota group team-a")
        .contains("b1");
    assertThat(command.getReasonCode()).isEqualTo("node-reserved");
    assertThat(engine.metrics().registry().find(EngineMetrics.EVICTIONS).counters())
        .singleElement()
        .satisfies(
            counter -> {
              assertThat(counter.getId().getTag("reason")).isEqualTo("node-reserved");
              assertThat(counter.getId().getTag("cluster")).isEqualTo(EAST);
              assertThat(counter.count()).isEqualTo(1.0);
            });

    engine.advance(Duration.ofSeconds(30));
    assertThat(engine.evictionRecords()).as("one command per pod uid").isEmpty();
  }

  @Test
  void aBestEffortReservationNeverEvicts() {
    engine.putPod(EAST, NS, pod("a0").group("team-a").running("n1").cpu(1_000));
    reserve(16_000, ReservationPolicy.BEST_EFFORT);
    assertThat(reservation().getNodes()).containsExactly("n1", "n2");

    engine.advance(DELAY.plus(Duration.ofSeconds(10)));

    assertThat(engine.evictionRecords()).isEmpty();
  }

  @Test
  void aPodThatLeavesTheLockedNodeBeforeTheDelayIsNotEvicted() {
    engine.putPod(EAST, NS, pod("a0").group("team-a").running("n1").cpu(1_000));
    reserve(16_000, ReservationPolicy.GUARANTEED);
    assertThat(reservation().getNodes()).contains("n1");
    engine.advance(CHECK.multipliedBy(3));

    engine.deletePod(EAST, NS, "b1").recompute();
    engine.advance(DELAY);

    assertThat(engine.evictionRecords()).isEmpty();
  }

  private static long plans(final EngineMetrics metrics) {
    final Timer timer =
        metrics.registry().find(EngineMetrics.RESERVATION_PLAN_TIME).tag("kind", "plan").timer();
    return timer == null ? 0 : timer.count();
  }
}
