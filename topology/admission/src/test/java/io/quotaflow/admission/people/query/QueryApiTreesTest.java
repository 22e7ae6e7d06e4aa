package io.quotaflow.admission.people.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.http.Plugin;
import io.quotaflow.admission.http.QuotaTreesAdmissionTest;
import io.quotaflow.tree.Fixtures;
import io.quotaflow.tree.QuotaOptions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The query API of a cluster with quota trees per node pool (docs/semantics.md section 15), over
 * the scene of {@link QuotaTreesAdmissionTest}: trees default (24 cpu), cpu-pool (16 cpu) and
 * gpu-pool (8 cpu).
 */
class QueryApiTreesTest {

  private static Plugin plugin;

  @BeforeAll
  static void start() {
    plugin =
        Plugin.start(
            QuotaTreesAdmissionTest.state()
                .put(
                    "west",
                    Fixtures.cluster()
                        .total(Fixtures.cpu(1_000))
                        .group(Fixtures.quota("solo"))
                        .inputs(),
                    QuotaOptions.DEFAULTS));
  }

  @AfterAll
  static void stop() {
    plugin.close();
  }

  private static List<String> field(JsonNode quotas, String name) {
    final List<String> values = new ArrayList<>();
    quotas.forEach(quota -> values.add(quota.path(name).asText()));
    return values;
  }

  @Test
  void everyQuotaNamesItsTreeAndTheTreesFollowOneAnotherDefaultFirst() {
    final JsonNode tree = plugin.get("/api/v1/clusters/east/quotas").json();

    assertThat(field(tree.get("quotas"), "name"))
        .containsExactly(
            "koordinator-root-quota",
            "koordinator-default-quota",
            "koordinator-system-quota",
            "legacy",
            "cpu-root",
            "batch",
            "web",
            "gpu-root",
            "vision");
    assertThat(field(tree.get("quotas"), "tree"))
        .containsExactly(
            "default",
            "default",
            "default",
            "default",
            "cpu-pool",
            "cpu-pool",
            "cpu-pool",
            "gpu-pool",
            "gpu-pool");
    assertThat(tree.get("total").get("cpu").asLong()).isEqualTo(24_000);
    assertThat(field(tree.get("trees"), "tree")).containsExactly("default", "cpu-pool", "gpu-pool");
    assertThat(field(tree.get("trees"), "root"))
        .containsExactly("koordinator-root-quota", "cpu-root", "gpu-root");
    assertThat(field(tree.get("trees"), "profile")).containsExactly("null", "cpu-pool", "gpu-pool");
    assertThat(tree.get("trees").get(1).get("total").get("cpu").asLong()).isEqualTo(16_000);
  }

  @Test
  void treeFiltersTheQuotasToOneTreeWithThatTreesTotal() {
    final JsonNode tree = plugin.get("/api/v1/clusters/east/quotas?tree=cpu-pool").json();

    assertThat(field(tree.get("quotas"), "name")).containsExactly("cpu-root", "batch", "web");
    assertThat(tree.get("quotas").get(0).get("runtime").get("cpu").asLong()).isEqualTo(16_000);
    assertThat(tree.get("total").get("cpu").asLong()).isEqualTo(16_000);
    assertThat(field(tree.get("trees"), "tree")).containsExactly("cpu-pool");

    final JsonNode defaults = plugin.get("/api/v1/clusters/east/quotas?tree=default").json();
    assertThat(field(defaults.get("quotas"), "tree")).containsOnly("default").hasSize(4);
    assertThat(defaults.get("total").get("cpu").asLong()).isEqualTo(24_000);
  }

  @Test
  void oneGroupNamesItsTree() {
    assertThat(
            plugin
                .get("/api/v1/clusters/east/quotas/vision")
                .json()
                .get("quota")
                .get("tree")
                .asText())
        .isEqualTo("gpu-pool");
  }

  @Test
  void aClusterWithoutProfilesHasNoTreeFieldsAndOnlyTheDefaultTree() {
    final JsonNode tree = plugin.get("/api/v1/clusters/west/quotas").json();
    assertThat(tree.has("trees")).isFalse();
    tree.get("quotas").forEach(quota -> assertThat(quota.has("tree")).isFalse());
    assertThat(plugin.get("/api/v1/clusters/west/quotas?tree=default").json()).isEqualTo(tree);
    assertThat(plugin.get("/api/v1/clusters/west/quotas/solo").json().get("quota").has("tree"))
        .isFalse();
  }

  @Test
  void anUnknownTreeIs404NamingTheClustersTrees() {
    final Plugin.Reply reply = plugin.get("/api/v1/clusters/east/quotas?tree=tpu-pool");

    assertThat(reply.status()).isEqualTo(404);
    assertThat(reply.body())
        .contains(
            "cluster east has no quota tree tpu-pool (its trees: default, cpu-pool, gpu-pool)");
  }

  @Test
  void aMalformedTreeIs400() {
    for (final String query : List.of("tree=", "tree=-x", "tree=a%2Fb", "tree=a%20b")) {
      final Plugin.Reply reply = plugin.get("/api/v1/clusters/east/quotas?" + query);
      assertThat(reply.status()).as(query).isEqualTo(400);
      assertThat(reply.body()).as(query).contains("tree must be a quota tree id");
    }
  }

  @Test
  void theWebViewNamesEachGroupsTreeAndMarksTheRootOfEachProfilesTree() {
    final JsonNode cpuRoot = plugin.get("/api/v1/clusters/east/view/groups/cpu-root").json();
    final JsonNode web = plugin.get("/api/v1/clusters/east/view/groups/web").json();
    final JsonNode legacy = plugin.get("/api/v1/clusters/east/view/groups/legacy").json();
    final JsonNode solo = plugin.get("/api/v1/clusters/west/view/groups/solo").json();

    assertThat(cpuRoot.path("group").path("tree").asText()).isEqualTo("cpu-pool");
    assertThat(cpuRoot.path("group").path("treeRoot").asBoolean()).isTrue();
    assertThat(web.path("group").path("tree").asText()).isEqualTo("cpu-pool");
    assertThat(web.path("group").path("treeRoot").asBoolean()).isFalse();
    assertThat(legacy.path("group").path("tree").asText()).isEqualTo("default");
    assertThat(legacy.path("group").path("treeRoot").asBoolean()).isFalse();
    // A cluster without profiles has one tree, which the page does not name.
    assertThat(solo.path("group").path("tree").isNull()).isTrue();
    assertThat(solo.path("group").path("treeRoot").isNull()).isTrue();
  }

  @Test
  void aWhatIfComputesEachTreeOnItsOwn() {
    final Plugin.Reply reply =
        plugin.post(
            "/api/v1/clusters/east/what-if",
            "{\"pods\": [{\"group\": \"web\", \"requests\": {\"cpu\": \"10\"}}]}");

    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    final JsonNode changed = reply.json().get("changed");
    // web (running 6 cores) asks 16: it borrows batch's idle min up to its tree's total of 16
    // cores; nothing outside the cpu tree moves.
    assertThat(field(changed, "name")).contains("web").doesNotContain("legacy", "vision");
    for (final JsonNode change : changed) {
      if (change.path("name").asText().equals("web")) {
        assertThat(change.path("before").path("runtime").path("cpu").asLong()).isEqualTo(6_000);
        assertThat(change.path("after").path("runtime").path("cpu").asLong()).isEqualTo(16_000);
      }
    }
  }
}
