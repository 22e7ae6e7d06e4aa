package io.quotaflow.admission.people.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.http.Plugin;
import io.quotaflow.admission.http.TestClusters;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.quota.ReservationPolicy;
import io.quotaflow.quota.ReservationSpec;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.simulate.SimulateJsonFields;
import io.quotaflow.tree.Fixtures;
import io.quotaflow.tree.QuotaOptions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class QueryApiTest {

  private static Plugin plugin;

  @BeforeAll
  static void start() {
    final SnapshotClusterState state = TestClusters.state();
    state.put(
        "west",
        Fixtures.cluster().total(Fixtures.cpu(1_000)).group(Fixtures.quota("solo")).inputs(),
        QuotaOptions.DEFAULTS);
    state.put(
        "busy",
        Fixtures.cluster()
            .total(Fixtures.cpu(1_000))
            .group(Fixtures.quota("solo"))
            .holding(SpecialGroups.SYSTEM, Fixtures.cpu(300))
            .inputs(),
        QuotaOptions.DEFAULTS);
    final Fixtures.ClusterBuilder locking = Fixtures.cluster();
    for (int i = 1; i <= 4; i++) {
      locking.node(Fixtures.node("n" + i, Fixtures.cpu(8_000)));
    }
    state.put(
        "locking",
        locking
            .group(
                Fixtures.quota("team-a")
                    .max(Fixtures.cpu(32_000))
                    .reservation(
                        ReservationSpec.of(ReservationPolicy.GUARANTEED, Fixtures.cpu(16_000))))
            .group(Fixtures.quota("team-b").max(Fixtures.cpu(32_000)))
            .inputs(),
        QuotaOptions.DEFAULTS);
    plugin = Plugin.start(state);
  }

  @Test
  void aReservingGroupCarriesItsReservationAsSimulatePrintsItAndNoOtherGroupDoes() {
    final JsonNode tree = plugin.get("/api/v1/clusters/locking/quotas").json();
    final JsonNode one = plugin.get("/api/v1/clusters/locking/quotas/team-a").json();

    JsonNode teamA = null;
    for (final JsonNode quota : tree.get("quotas")) {
      if (quota.get("name").asText().equals("team-a")) {
        teamA = quota;
      } else {
        assertThat(quota.has("reservation")).as(quota.get("name").asText()).isFalse();
      }
    }
    assertThat(teamA).isNotNull();
    assertThat(fields(teamA.get("reservation"))).isEqualTo(SimulateJsonFields.RESERVATION);
    assertThat(teamA.get("reservation").get("nodes").toString()).isEqualTo("[\"n1\",\"n2\"]");
    assertThat(teamA.get("reservation").get("satisfied").asBoolean()).isTrue();
    assertThat(teamA.get("reservation").get("idle").get("cpu").asLong()).isEqualTo(16_000);
    assertThat(one.get("quota").get("reservation")).isEqualTo(teamA.get("reservation"));
  }

  @AfterAll
  static void stop() {
    plugin.close();
  }

  private static List<String> fields(JsonNode node) {
    final List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  @Test
  void theTotalIsTheClusterTotalAsInSimulateNotWhatTheRootDistributes() {
    final JsonNode body = plugin.get("/api/v1/clusters/busy/quotas").json();

    assertThat(body.get("total").get("cpu").asLong()).isEqualTo(1_000);
    assertThat(body.get("quotas").get(0).get("name").asText()).isEqualTo(SpecialGroups.ROOT);
    assertThat(body.get("quotas").get(0).get("runtime").get("cpu").asLong())
        .as("the system group's use is carved out of what the root distributes")
        .isEqualTo(700);
  }

  @Test
  void listsTheClusters() {
    final JsonNode body = plugin.get("/api/v1/clusters").json();

    assertThat(body.get("clusters"))
        .extracting(JsonNode::asText)
        .containsExactly("busy", "east", "locking", "west");
    assertThat(body.get("unreachable").isEmpty()).isTrue();
  }

  @Test
  void theTreeHasTheRootFirstThenDepthFirstWithSimulatesFieldNames() {
    final Plugin.Reply reply = plugin.get("/api/v1/clusters/east/quotas");

    assertThat(reply.status()).isEqualTo(200);
    final JsonNode body = reply.json();
    assertThat(body.get("cluster").asText()).isEqualTo("east");
    assertThat(body.get("total").get("cpu").asLong()).isEqualTo(10_000);
    final List<String> names = new ArrayList<>();
    body.get("quotas").forEach(quota -> names.add(quota.get("name").asText()));
    assertThat(names)
        .containsExactly(
            SpecialGroups.ROOT,
            SpecialGroups.DEFAULT,
            SpecialGroups.SYSTEM,
            "ops",
            "research",
            "team-a",
            "team-b");
    body.get("quotas")
        .forEach(
            quota -> assertThat(fields(quota)).containsExactlyElementsOf(SimulateJsonFields.QUOTA));
    assertThat(body.get("quotas").get(0).get("parent").isNull()).isTrue();
  }

  @Test
  void oneGroupComesWithItsPodsAndTheirClasses() {
    final JsonNode body = plugin.get("/api/v1/clusters/east/quotas/team-a").json();

    assertThat(body.get("quota").get("name").asText()).isEqualTo("team-a");
    assertThat(body.get("quota").get("runtime").get("cpu").asLong()).isEqualTo(4_000);
    assertThat(body.get("quota").get("used").get("cpu").asLong()).isEqualTo(1_000);
    final JsonNode pod = body.get("pods").get(0);
    assertThat(fields(pod)).containsExactlyElementsOf(SimulateJsonFields.POD);
    assertThat(pod.get("name").asText()).isEqualTo("a-1");
    assertThat(pod.get("class").asText()).isEqualTo("in-quota");
  }

  @Test
  void anUnknownGroupOrClusterIsA404WithJson() {
    final Plugin.Reply group = plugin.get("/api/v1/clusters/east/quotas/nobody");
    final Plugin.Reply cluster = plugin.get("/api/v1/clusters/north/quotas");

    assertThat(group.status()).isEqualTo(404);
    assertThat(group.json().get("error").asText()).contains("nobody");
    assertThat(cluster.status()).isEqualTo(404);
    assertThat(cluster.json().get("error").asText()).contains("unknown cluster north");
  }
}
