package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.node;
import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.GroupReservation;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.schemas.ReservationPolicy;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A restarted task takes its node reservations back from its stores: the locks stay where they
 * were, the reservations keep their ages, nothing is emitted the stores already say, and the clock
 * of a pod on a Guaranteed lock runs on. The scene: four 8-cpu nodes; team-a (which runs a0 on n1)
 * reserves 16 cpu, Guaranteed; team-b runs b1 on n1.
 */
class ReservationRestartTest {
  private static final String EAST = "east";
  private static final String NS = "apps";

  private ProcessorHarness harness;
  private GroupReservation locked;

  @BeforeEach
  void start() {
    harness = new ProcessorHarness();
    for (int i = 1; i <= 4; i++) {
      harness.node(EAST, "n" + i, node(8_000));
    }
    harness
        .quota(
            EAST,
            "team-a",
            quota().max(cpu(32_000)).reserve(cpu(16_000), ReservationPolicy.GUARANTEED).build())
        .quota(EAST, "team-b", quota().max(cpu(32_000)).build())
        .pod(EAST, NS, pod("a0").group("team-a").running("n1").cpu(1_000))
        .pod(EAST, NS, pod("b1").group("team-b").running("n1").cpu(1_000))
        .recompute();
    locked = reservationOf(harness.runtime(), "team-a");
    assertThat(locked.getNodes()).containsExactly("n1", "n2");
  }

  private static GroupReservation reservationOf(
      final List<Record<QuotaKey, GroupRuntime>> records, final String group) {
    return records.stream()
        .filter(record -> record.key().getName().equals(group))
        .reduce((first, second) -> second)
        .orElseThrow(() -> new AssertionError("no runtime record of " + group))
        .value()
        .getReservation()
        .orElseThrow();
  }

  @Test
  void aRestartedTaskKeepsItsLocksAndEmitsNothingNew() {
    harness.advance(Duration.ofSeconds(3)).runtime();

    harness.restart().recompute();

    assertThat(harness.runtime()).isEmpty();
  }

  @Test
  void aReservationKeepsItsLockAndItsAgeAcrossARestart() {
    harness.advance(Duration.ofSeconds(3)).restart();

    harness.pod(EAST, NS, pod("a1").group("team-a").running("n2").cpu(2_000)).recompute();

    final GroupReservation after = reservationOf(harness.runtime(), "team-a");
    assertThat(after.getNodes()).isEqualTo(locked.getNodes());
    assertThat(after.getRequestedAt()).isEqualTo(locked.getRequestedAt());
    assertThat(after.getIdle().get("cpu")).isEqualTo(locked.getIdle().get("cpu") - 2_000);
  }

  @Test
  void theClockOfAPodOnAGuaranteedLockSurvivesARestart() {
    harness.advance(Duration.ofSeconds(61));
    harness.restart();

    harness.advance(Duration.ofSeconds(60));

    assertThat(harness.evictions())
        .extracting(record -> record.key().getName())
        .containsExactly("b1");
  }
}
