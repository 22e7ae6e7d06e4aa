package io.quotaflow.admission.machine.scheduler;

import static io.quotaflow.admission.http.Reviews.pod;
import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.quotaflow.admission.endpoint.Json;
import io.quotaflow.admission.http.Plugin;
import io.quotaflow.admission.http.PluginConfig;
import io.quotaflow.admission.http.Reviews;
import io.quotaflow.admission.http.TestClusters;
import io.quotaflow.admission.machine.AdmissionMode;
import io.quotaflow.admission.machine.denials.DeniedPods;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.quota.ReservationPolicy;
import io.quotaflow.quota.ReservationSpec;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.Fixtures;
import io.quotaflow.tree.QuotaOptions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The scheduler filter and node reservations (docs/semantics.md section 14): a locked node takes no
 * new pod of another group. The scene: four 8-cpu nodes n1..n4; team-a (namespace alpha) reserves
 * 16 cpu and gets n1 and n2; team-b (namespace beta) reserves nothing.
 */
class SchedulerFilterReservationTest {

  private static final String FILTER = "/clusters/east/scheduler/filter";
  private static final String[] NODES = {"n1", "n2", "n3", "n4"};

  private Plugin plugin;

  private static SnapshotClusterState state() {
    final Fixtures.ClusterBuilder cluster = Fixtures.cluster();
    for (final String node : NODES) {
      cluster.node(Fixtures.node(node, cpu(8_000)));
    }
    cluster
        .group(
            quota("team-a")
                .max(cpu(32_000))
                .namespaces(List.of("alpha"))
                .reservation(ReservationSpec.of(ReservationPolicy.BEST_EFFORT, cpu(16_000))))
        .group(quota("team-b").max(cpu(32_000)).namespaces(List.of("beta")))
        .group(quota(SpecialGroups.SYSTEM).namespaces(List.of("infra")));
    return new SnapshotClusterState()
        .put(TestClusters.EAST, cluster.inputs(), QuotaOptions.DEFAULTS);
  }

  @AfterEach
  void stop() {
    if (plugin != null) {
      plugin.close();
    }
  }

  private JsonNode filter(Reviews.PodJson pod) {
    final Plugin.Reply reply = plugin.post(FILTER, Reviews.filterArgsWithNames(pod, NODES));
    assertThat(reply.status()).isEqualTo(200);
    return reply.json();
  }

  private static List<String> names(JsonNode array) {
    final List<String> names = new ArrayList<>();
    array.forEach(name -> names.add(name.asText()));
    return names;
  }

  @Test
  void aPodOfAnotherGroupIsTurnedAwayFromTheLockedNodesWithAReasonNamingTheReservation() {
    plugin = Plugin.start(state());

    final JsonNode result = filter(pod("beta", "b-1").cpu("1"));

    assertThat(names(result.get("NodeNames"))).containsExactly("n3", "n4");
    final JsonNode refused = result.get("FailedAndUnresolvableNodes");
    assertThat(names(fieldNames(refused))).containsExactly("n1", "n2");
    assertThat(refused.get("n1").asText())
        .isEqualTo(
            "quotaflow: node-reserved: node n1 is locked by the reservation of quota group team-a"
                + " (quotaflow.io/reservation); pods of team-b may not use it");
    assertThat(result.get("FailedNodes").size()).isZero();
    assertThat(result.get("Error").asText()).isEmpty();
  }

  @Test
  void aPodLeftOnlyLockedNodesWaitsForNodeReservedAndOneWithAFreeNodeDoesNot() {
    plugin = Plugin.start(state());

    filter(pod("beta", "b-1").cpu("1"));
    plugin.post(FILTER, Reviews.filterArgsWithNames(pod("beta", "b-2").cpu("1"), "n1", "n2"));

    final var registry = plugin.server().registry();
    assertThat(
            registry
                .get(DeniedPods.DENIED)
                .tags("reason", "node-reserved", "occasion", "filter")
                .counter()
                .count())
        .isEqualTo(1);
    assertThat(
            registry
                .get(PendingPods.PENDING)
                .tags("cluster", "east", "name", "team-b", "reason", "node-reserved")
                .gauge()
                .value())
        .isEqualTo(1);
  }

  @Test
  void nodeObjectsOfLockedNodesAreLeftOutOfTheAnswer() {
    plugin = Plugin.start(state());

    final JsonNode result =
        plugin.post(FILTER, Reviews.filterArgsWithNodes(pod("beta", "b-1").cpu("1"), NODES)).json();

    final List<String> kept = new ArrayList<>();
    result
        .get("Nodes")
        .get("items")
        .forEach(item -> kept.add(item.get("metadata").get("name").asText()));
    assertThat(kept).containsExactly("n3", "n4");
    assertThat(names(fieldNames(result.get("FailedAndUnresolvableNodes"))))
        .containsExactly("n1", "n2");
  }

  @Test
  void aPodOfTheReservingGroupMayUseEveryNodeItsLockIncluded() {
    plugin = Plugin.start(state());

    final JsonNode result = filter(pod("alpha", "a-1").cpu("1"));

    assertThat(names(result.get("NodeNames"))).containsExactly(NODES);
    assertThat(result.get("FailedAndUnresolvableNodes").size()).isZero();
  }

  @Test
  void podsOfTheSystemGroupOfExcludedNamespacesAndOfDaemonSetsPassLockedNodes() {
    plugin = Plugin.start(state());
    assertThat(names(filter(pod("infra", "logger").cpu("100m")).get("NodeNames")))
        .containsExactly(NODES);
    assertThat(names(filter(pod("kube-system", "proxy").cpu("100m")).get("NodeNames")))
        .containsExactly(NODES);
    assertThat(
            names(
                filter(pod("beta", "agent").cpu("100m").ownedBy("DaemonSet", "agent"))
                    .get("NodeNames")))
        .containsExactly(NODES);
  }

  @Test
  void inWarnModeLockedNodesPass() {
    plugin =
        Plugin.start(PluginConfig.plainHttpOnLoopback(0).withMode(AdmissionMode.WARN), state());

    assertThat(names(filter(pod("beta", "b-1").cpu("1")).get("NodeNames"))).containsExactly(NODES);
  }

  @Test
  void aPodOverItsQuotaFailsEveryNodeForItsQuotaNotForTheLocks() {
    plugin = Plugin.start(state());

    final JsonNode result = filter(pod("beta", "huge").cpu("33"));

    assertThat(names(result.get("NodeNames"))).isEmpty();
    assertThat(result.get("FailedAndUnresolvableNodes").get("n3").asText())
        .contains("does not fit quota group team-b");
    assertThat(result.get("FailedAndUnresolvableNodes").get("n1").asText())
        .contains("does not fit quota group team-b");
  }

  private static JsonNode fieldNames(JsonNode object) {
    final ArrayNode names = Json.MAPPER.createArrayNode();
    object.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
