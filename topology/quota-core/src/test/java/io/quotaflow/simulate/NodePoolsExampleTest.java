package io.quotaflow.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The node-pools example of {@code deploy/local/examples/node-pools} (two ElasticQuotaProfiles),
 * simulated, against numbers worked out by hand (docs/semantics.md section 15).
 *
 * <p>GPU pool: 2 nodes of 32 cores and 4 GPUs, ratio 0.9: 57.6 cores, 8 x 0.9 = 7.2 rounded down to
 * 7 GPUs. vision (min 4, max 7 GPUs) asks 2 + 2 + 3 = 7, nlp (min 2) asks 1 and lends the rest:
 * vision starts at its min 4, nlp gets its request 1, the 2 left go to vision: 6. CPU pool: 2 nodes
 * of 16 cores, ratio 1: 32 cores. web does not lend and keeps its min 16; batch asks 24, starts at
 * 8 and takes the 8 left: 16, though the GPU pool has idle cores (another tree).
 */
class NodePoolsExampleTest {

  private static final Path EXAMPLE = Path.of("../../deploy/local/examples/node-pools");

  private static SimulateRun json;
  private static SimulateRun table;

  @BeforeAll
  static void simulate() {
    json = SimulateRun.of("-f", EXAMPLE.toString(), "--output", "json");
    table = SimulateRun.of("-f", EXAMPLE.toString());
    assertThat(json.exitCode()).as(json.err()).isZero();
  }

  @Test
  void theExampleReadsWithoutWarnings() {
    assertThat(json.err()).isEmpty();
  }

  @Test
  void eachProfileIsATreeBesideTheDefaultOne() {
    final List<String> trees = new ArrayList<>();
    json.json().get("trees").forEach(tree -> trees.add(tree.get("tree").asText()));
    assertThat(trees).containsExactly("default", "cpu-pool", "gpu-pool");
    assertThat(tree("gpu-pool").get("root").asText()).isEqualTo("gpu-root");
    assertThat(tree("gpu-pool").get("nodes").toString())
        .isEqualTo("[\"gpu-node-1\",\"gpu-node-2\"]");
  }

  @Test
  void aTreesTotalIsItsNodesAllocatableTimesTheRatioRoundedDown() {
    assertThat(tree("gpu-pool").get("total").get("cpu").asLong()).isEqualTo(57_600);
    assertThat(tree("gpu-pool").get("total").get("nvidia.com/gpu").asLong()).isEqualTo(7);
    // 256Gi x 0.9 = 247390116249.6 bytes, rounded down.
    assertThat(tree("gpu-pool").get("total").get("memory").asLong()).isEqualTo(247_390_116_249L);
    assertThat(tree("cpu-pool").get("total").get("cpu").asLong()).isEqualTo(32_000);
  }

  @Test
  void theProfilesQuotaNameIsTheRootWithTheTotalAsRuntime() {
    final JsonNode root = quota("gpu-root");
    assertThat(root.get("tree").asText()).isEqualTo("gpu-pool");
    assertThat(root.get("isParent").asBoolean()).isTrue();
    assertThat(root.get("runtime").get("nvidia.com/gpu").asLong()).isEqualTo(7);
    assertThat(root.get("runtime").get("cpu").asLong()).isEqualTo(57_600);
    assertThat(quota("cpu-root").get("runtime").get("cpu").asLong()).isEqualTo(32_000);
  }

  @Test
  void groupsShareOnlyWithinTheirTree() {
    assertThat(quota("vision").get("tree").asText()).isEqualTo("gpu-pool");
    assertThat(quota("vision").get("runtime").get("nvidia.com/gpu").asLong()).isEqualTo(6);
    assertThat(quota("nlp").get("runtime").get("nvidia.com/gpu").asLong()).isEqualTo(1);
    assertThat(quota("batch").get("tree").asText()).isEqualTo("cpu-pool");
    assertThat(quota("web").get("runtime").get("cpu").asLong()).isEqualTo(16_000);
    assertThat(quota("batch").get("runtime").get("cpu").asLong()).isEqualTo(16_000);
  }

  @Test
  void theTableNamesEachTree() {
    assertThat(table.out())
        .contains(
            "=== Tree gpu-pool: ElasticQuotaProfile gpu-pool, root gpu-root, resourceRatio 0.9,"
                + " 2 Ready nodes")
        .contains("=== Tree cpu-pool: ElasticQuotaProfile cpu-pool, root cpu-root")
        .contains("=== Tree default:");
  }

  private static JsonNode tree(String id) {
    for (final JsonNode tree : json.json().get("trees")) {
      if (tree.get("tree").asText().equals(id)) {
        return tree;
      }
    }
    throw new AssertionError("no tree " + id);
  }

  private static JsonNode quota(String name) {
    for (final JsonNode quota : json.json().get("quotas")) {
      if (quota.get("name").asText().equals(name)) {
        return quota;
      }
    }
    throw new AssertionError("no quota " + name);
  }
}
