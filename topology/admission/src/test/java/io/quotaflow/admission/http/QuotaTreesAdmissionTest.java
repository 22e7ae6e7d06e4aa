package io.quotaflow.admission.http;

import static io.quotaflow.admission.http.Reviews.createPod;
import static io.quotaflow.admission.http.Reviews.pod;
import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.admission.endpoint.Json;
import io.quotaflow.admission.machine.AdmissionMode;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.profile.NodeSelector;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.profile.ResourceRatio;
import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.tree.Fixtures;
import io.quotaflow.tree.QuotaOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Admission and the scheduler filter with quota trees per node pool (docs/semantics.md section 15).
 * The scene: nodes cpu-1 and cpu-2 (pool=cpu, 8 cpu each) and gpu-1 (pool=gpu, 8 cpu); profile
 * cpu-pool (root cpu-root) selects the cpu pool, so its tree's total is 16 cpu; profile gpu-pool
 * (root gpu-root) selects gpu-1. In the cpu tree web (min 4, max 32, namespace web) runs 6 cpu and
 * batch (min 12) is idle. The default tree (all three nodes, 24 cpu) holds legacy (min 20, max 24,
 * namespace legacy), running 20 cpu.
 */
public class QuotaTreesAdmissionTest {

  private static final String WEBHOOK = "/clusters/east/admission/pods";
  private static final String FILTER = "/clusters/east/scheduler/filter";
  private static final String[] NODES = {"cpu-1", "cpu-2", "gpu-1"};

  private Plugin plugin;

  private static QuotaNode node(String name, String pool) {
    return new QuotaNode(name, cpu(8_000), true, true, false, List.of(), Map.of("pool", pool));
  }

  private static QuotaProfile profile(String name, String root, String pool) {
    return QuotaProfile.of(
        name, root, ResourceRatio.ONE, new NodeSelector(Map.of("pool", pool), List.of()));
  }

  private static QuotaPod running(String group, String name, long milliCpu, String node) {
    return Fixtures.pod(group, name)
        .request(cpu(milliCpu))
        .phase(PodPhase.RUNNING)
        .nodeName(node)
        .build();
  }

  /** The scene above, as cluster east. */
  public static SnapshotClusterState state() {
    final Fixtures.ClusterBuilder cluster =
        Fixtures.cluster()
            .node(node("cpu-1", "cpu"))
            .node(node("cpu-2", "cpu"))
            .node(node("gpu-1", "gpu"))
            .group(
                quota("web")
                    .parent("cpu-root")
                    .min(cpu(4_000))
                    .max(cpu(32_000))
                    .namespaces(List.of("web")))
            .group(quota("batch").parent("cpu-root").min(cpu(12_000)).max(cpu(32_000)))
            .group(quota("vision").parent("gpu-root").max(cpu(8_000)).namespaces(List.of("ml")))
            .group(quota("legacy").min(cpu(20_000)).max(cpu(24_000)).namespaces(List.of("legacy")))
            .pod(running("web", "web-0", 6_000, "cpu-1"))
            .pod(running("legacy", "legacy-0", 20_000, "gpu-1"));
    return new SnapshotClusterState()
        .put(
            TestClusters.EAST,
            cluster.inputs(),
            List.of(profile("cpu-pool", "cpu-root", "cpu"), profile("gpu-pool", "gpu-root", "gpu")),
            QuotaOptions.DEFAULTS);
  }

  @AfterEach
  void stop() {
    if (plugin != null) {
      plugin.close();
    }
  }

  private JsonNode admit(Reviews.PodJson pod) {
    return plugin.post(WEBHOOK, createPod("uid", pod)).json().get("response");
  }

  private static List<String> names(JsonNode node) {
    final List<String> names = new ArrayList<>();
    if (node.isArray()) {
      node.forEach(name -> names.add(name.asText()));
    } else {
      node.fieldNames().forEachRemaining(names::add);
    }
    return names;
  }

  @Test
  void theRootOfAProfileTreeHasTheTreesTotalAsItsRuntime() {
    final SnapshotClusterState state = state();
    assertThat(state.snapshot(TestClusters.EAST).orElseThrow().groups())
        .filteredOn(status -> status.name().equals("cpu-root"))
        .singleElement()
        .satisfies(root -> assertThat(root.runtime()).isEqualTo(cpu(16_000)));
  }

  @Test
  void aPodOfAProfileTreeBorrowsWithinItsTreeUpToTheTreesTotalWhateverTheDefaultTreeHolds() {
    plugin = Plugin.start(state());

    // web: 6 used + 10 = 16 = the cpu tree's total; batch lends its idle min 12. legacy holds 20
    // of the default tree's 24, which a what-if from koordinator-root-quota would have split too.
    final JsonNode response = admit(pod("web", "web-1").cpu("10"));

    assertThat(response.get("allowed").asBoolean()).as(response.toString()).isTrue();
  }

  @Test
  void aPodBeyondItsTreesTotalIsDeniedAtItsGroupAndTheTreesRoot() {
    plugin = Plugin.start(state());

    final JsonNode response = admit(pod("web", "web-1").cpu("11"));

    assertThat(response.get("allowed").asBoolean()).isFalse();
    assertThat(response.get("status").get("message").asText())
        .contains("web", "cpu-root")
        .contains("runtime 16")
        .contains("used 6 ")
        .contains("request 11 ")
        .doesNotContain("koordinator-root-quota");
  }

  @Test
  void theFilterTurnsAPodOfAProfileTreeAwayFromNodesOutsideItsPoolNamingTreeProfileAndGroup() {
    plugin = Plugin.start(state());

    final JsonNode result =
        plugin
            .post(FILTER, Reviews.filterArgsWithNames(pod("web", "web-1").cpu("1"), NODES))
            .json();

    assertThat(names(result.get("NodeNames"))).containsExactly("cpu-1", "cpu-2");
    final JsonNode refused = result.get("FailedAndUnresolvableNodes");
    assertThat(names(refused)).containsExactly("gpu-1");
    assertThat(refused.get("gpu-1").asText())
        .isEqualTo(
            "quotaflow: outside-pool: node gpu-1 is outside the node pool of quota tree cpu-pool"
                + " (ElasticQuotaProfile cpu-pool, root cpu-root), the tree of quota group web");
    assertThat(result.get("FailedNodes").size()).isZero();
  }

  @Test
  void theFilterReadsTheLabelsOfTheNodeObjectsTheSchedulerSends() {
    plugin = Plugin.start(state());
    final ObjectNode args = Json.object();
    args.set("Pod", pod("ml", "train").cpu("1").json());
    final var items = args.putObject("Nodes").putArray("items");
    // cpu-2 is relabelled into the gpu pool since the engine last read it: the node sent wins.
    items
        .addObject()
        .putObject("metadata")
        .put("name", "cpu-2")
        .putObject("labels")
        .put("pool", "gpu");
    items
        .addObject()
        .putObject("metadata")
        .put("name", "gpu-1")
        .putObject("labels")
        .put("pool", "gpu");
    items.addObject().putObject("metadata").put("name", "new-node");
    args.putNull("NodeNames");

    final JsonNode result = plugin.post(FILTER, args.toString()).json();

    final List<String> kept = new ArrayList<>();
    result
        .get("Nodes")
        .get("items")
        .forEach(item -> kept.add(item.path("metadata").path("name").asText()));
    assertThat(kept).containsExactly("cpu-2", "gpu-1");
    assertThat(result.get("FailedAndUnresolvableNodes").get("new-node").asText())
        .contains("quota tree gpu-pool", "quota group vision", "the node's labels are not known");
  }

  @Test
  void aPodOfTheDefaultTreeMayRunOnEveryNode() {
    plugin = Plugin.start(state());

    final JsonNode result =
        plugin
            .post(FILTER, Reviews.filterArgsWithNames(pod("legacy", "l-1").cpu("1"), NODES))
            .json();

    assertThat(names(result.get("NodeNames"))).containsExactly(NODES);
    assertThat(result.get("FailedAndUnresolvableNodes").size()).isZero();
  }

  @Test
  void inWarnModeAndForDaemonSetsNodesOutsideThePoolPass() {
    plugin =
        Plugin.start(PluginConfig.plainHttpOnLoopback(0).withMode(AdmissionMode.WARN), state());
    assertThat(
            names(
                plugin
                    .post(FILTER, Reviews.filterArgsWithNames(pod("web", "w").cpu("1"), NODES))
                    .json()
                    .get("NodeNames")))
        .containsExactly(NODES);
    plugin.close();

    plugin = Plugin.start(state());
    assertThat(
            names(
                plugin
                    .post(
                        FILTER,
                        Reviews.filterArgsWithNames(
                            pod("web", "agent").cpu("100m").ownedBy("DaemonSet", "agent"), NODES))
                    .json()
                    .get("NodeNames")))
        .containsExactly(NODES);
  }
}
