package io.quotaflow.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The node-reservation example of {@code deploy/local/examples/reservations}, simulated, against
 * what its comments (and docs/simulate.md) promise. The cluster: four CPU nodes of 16 cores and
 * 64Gi, two GPU nodes of 32 cores, 128Gi and 4 GPUs: 128 cores, 512Gi, 8 GPUs, 660 pod slots. The
 * locked-share cap is the default 50 %: 64 cores, 256Gi, 4 GPUs, 330 pod slots.
 */
class ReservationExampleTest {

  private static final Path EXAMPLE = Path.of("../../deploy/local/examples/reservations");
  private static final long GI = 1L << 30;

  private static SimulateRun json;

  @BeforeAll
  static void simulate() {
    json = SimulateRun.of("-f", EXAMPLE.toString(), "--output", "json");
    assertThat(json.exitCode()).as(json.err()).isZero();
  }

  @Test
  void theExampleReadsWithoutWarnings() {
    assertThat(json.err()).isEmpty();
  }

  @Test
  void aQuarterOfTheClusterLocksTwoCpuNodesIncludingTheOneTheGroupRunsOn() {
    // floor(6 x 0.25) = 1 node; floor(128 x 0.25) = 32 cores, floor(512Gi x 0.25) = 128Gi. Two CPU
    // nodes cover it with no excess, a GPU node would lock 4 idle GPUs. etl-1 runs on cpu-3; of
    // the rest, cpu-1 is less idle (web's pod), and cpu-2 comes before cpu-4 by name.
    final JsonNode batch = json.quota("batch").get("reservation");

    assertThat(batch.get("nodes").toString()).isEqualTo("[\"cpu-2\",\"cpu-3\"]");
    assertThat(batch.get("satisfied").asBoolean()).isTrue();
    assertThat(batch.get("minNodes").asInt()).isEqualTo(1);
    assertThat(batch.get("target").get("cpu").asLong()).isEqualTo(32_000);
    assertThat(batch.get("target").get("memory").asLong()).isEqualTo(128 * GI);
    // 32 cores and 128Gi less etl-1's 8 cores and 32Gi.
    assertThat(batch.get("idle").get("cpu").asLong()).isEqualTo(24_000);
    assertThat(batch.get("idle").get("memory").asLong()).isEqualTo(96 * GI);
  }

  @Test
  void fourGpusLockTheGpuNodeTheGroupAlreadyRunsOn() {
    final JsonNode training = json.quota("training").get("reservation");

    assertThat(training.get("nodes").toString()).isEqualTo("[\"gpu-2\"]");
    assertThat(training.get("satisfied").asBoolean()).isTrue();
    assertThat(training.get("policy").asText()).isEqualTo("Guaranteed");
    // 32 cores less train-1's 16 and web's frontend-2's 4; the 4 GPUs are all train-1's.
    assertThat(training.get("idle").get("cpu").asLong()).isEqualTo(12_000);
    assertThat(training.get("idle").get("nvidia.com/gpu").asLong()).isZero();
  }

  @Test
  void aReservationBeyondTheCapIsNotSatisfiedAndSaysWhereTheCapBinds() {
    // batch's 32 and training's 32 cores are the cap's 64 already.
    final JsonNode web = json.quota("web").get("reservation");

    assertThat(web.get("satisfied").asBoolean()).isFalse();
    assertThat(web.get("valid").asBoolean()).isTrue();
    assertThat(web.get("nodes")).isEmpty();
    assertThat(web.get("reason").asText())
        .isEqualTo(
            "locking nodes for web would take the locked share of the cluster above 50 %"
                + " (cpu 0 left under the cap, 16 wanted)");
  }

  @Test
  void onlyTheGroupsWithTheAnnotationHaveAReservation() {
    assertThat(json.json().get("quotas"))
        .filteredOn(quota -> quota.has("reservation"))
        .extracting(quota -> quota.get("name").asText())
        .containsExactly("batch", "training", "web");
  }
}
