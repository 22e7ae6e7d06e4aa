package io.quotaflow.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code simulate} with node reservations: quotas[].reservation in JSON, a line in the table. */
class SimulateReservationTest {

  @TempDir Path dir;

  private static String reserving(String name, String annotation) {
    return """
        apiVersion: scheduling.sigs.k8s.io/v1alpha1
        kind: ElasticQuota
        metadata:
          name: %s
          namespace: team
          annotations:
            quotaflow.io/reservation: '%s'
        spec: {min: {cpu: "8"}, max: {cpu: "32"}}
        """
        .formatted(name, annotation);
  }

  @BeforeEach
  void fourNodesTwoTeamsOneReserving() {
    final List<String> documents = new ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      documents.add(Manifests.node("node-" + i, "{cpu: \"8\", memory: 32Gi}"));
    }
    documents.add(
        reserving("team-a", "{\"policy\": \"Guaranteed\", \"resource\": {\"cpu\": \"16\"}}"));
    documents.add(Manifests.quota("team-b", null, "{cpu: \"8\"}", "{cpu: \"32\"}"));
    documents.add(Manifests.pod("a-1", "team-a", "node-3", "{cpu: \"2\"}"));
    documents.add(Manifests.pod("b-1", "team-b", "node-1", "{cpu: \"4\"}"));
    Manifests.write(
        dir.resolve("cluster.yaml"), Manifests.documents(documents.toArray(String[]::new)));
  }

  @Test
  void jsonGivesAReservingGroupItsLockedNodesSatisfiedAndIdleAndNoOtherGroupAReservation() {
    final SimulateRun run = SimulateRun.of("-f", dir.toString(), "--output", "json");

    assertThat(run.exitCode()).isZero();
    final JsonNode reservation = run.quota("team-a").get("reservation");
    final List<String> fields = new ArrayList<>();
    reservation.fieldNames().forEachRemaining(fields::add);
    assertThat(fields).isEqualTo(SimulateJsonFields.RESERVATION);
    // 16 cores on 8-core nodes: two nodes; node-3 holds team-a's pod, node-1 team-b's.
    assertThat(reservation.get("nodes").toString()).isEqualTo("[\"node-2\",\"node-3\"]");
    assertThat(reservation.get("satisfied").asBoolean()).isTrue();
    assertThat(reservation.get("idle").get("cpu").asLong()).isEqualTo(14_000);
    assertThat(reservation.get("policy").asText()).isEqualTo("Guaranteed");
    assertThat(reservation.get("target").get("cpu").asLong()).isEqualTo(16_000);
    assertThat(run.quota("team-b").has("reservation")).isFalse();
  }

  @Test
  void theTableSaysWhichNodesAGroupReserves() {
    final SimulateRun run = SimulateRun.of("-f", dir.toString());

    assertThat(run.out())
        .contains(
            "  reservation Guaranteed: reserves 2 nodes (node-2, node-3) for cpu 16; idle cpu 14,"
                + " memory 64Gi");
  }

  @Test
  void theLockedShareCapOfTheConfigFileIsHonoured() {
    final Path config =
        Manifests.write(
            dir.resolve("conf/simulate.properties"), "reservation-max-locked-percent=25\n");

    final JsonNode reservation =
        SimulateRun.of("-f", dir.toString(), "--config", config.toString(), "--output", "json")
            .quota("team-a")
            .get("reservation");

    assertThat(reservation.get("satisfied").asBoolean()).isFalse();
    assertThat(reservation.get("nodes").size()).isZero();
    assertThat(reservation.get("reason").asText()).contains("above 25 %");
  }

  @Test
  void aBadCapInTheConfigFileIsBadInputNamingTheSetting() {
    final Path config =
        Manifests.write(
            dir.resolve("conf/simulate.properties"), "reservation-max-locked-percent=101\n");

    final SimulateRun run = SimulateRun.of("-f", dir.toString(), "--config", config.toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .contains("reservation-max-locked-percent: expected a whole percentage from 0 to 100");
  }

  @Test
  void anUnreadableReservationIsAWarningAndReportedInvalidWhileTheQuotaIsComputed() {
    Manifests.write(
        dir.resolve("z-broken.yaml"), reserving("team-c", "{\"resource\": {\"cpu\": \"lots\"}}"));

    final SimulateRun run = SimulateRun.of("-f", dir.toString(), "--output", "json");

    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).contains("team-c").contains("the reservation locks nothing");
    assertThat(run.quota("team-c").get("valid").asBoolean()).isTrue();
    final JsonNode reservation = run.quota("team-c").get("reservation");
    assertThat(reservation.get("valid").asBoolean()).isFalse();
    assertThat(reservation.get("reason").asText())
        .contains("reservation-readable")
        .contains("resource[cpu]");
  }
}
