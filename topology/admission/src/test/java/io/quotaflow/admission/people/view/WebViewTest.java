package io.quotaflow.admission.people.view;

import static io.quotaflow.admission.http.Reviews.createPod;
import static io.quotaflow.admission.http.Reviews.pod;
import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.http.PeopleSettings;
import io.quotaflow.admission.http.Plugin;
import io.quotaflow.admission.http.PluginConfig;
import io.quotaflow.admission.http.PluginSettings;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ReservationPolicy;
import io.quotaflow.quota.ReservationSpec;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.Fixtures;
import io.quotaflow.tree.QuotaOptions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The web view's page and endpoints over a computed cluster: rows a parent at a time with the
 * table's units and the marks the page shows, a group's detail with pods and in-flight holds, the
 * recent denials, the security headers, and the setting that turns it all off.
 */
class WebViewTest {

  static final String CLUSTER = "view";

  private Plugin plugin;

  /** 10 cores: idle lends its min of 4, busy runs 8 cores (borrowing 6 beyond its min of 2). */
  static Fixtures.ClusterBuilder cluster() {
    return Fixtures.cluster()
        .total(cpu(10_000))
        .group(quota("idle").min(cpu(4_000)).max(cpu(10_000)))
        .group(quota("busy").min(cpu(2_000)).max(cpu(10_000)))
        .pod(running("busy", "b-1", 5_000, 7))
        .pod(running("busy", "b-2", 3_000, 1));
  }

  static QuotaPod running(String group, String name, long milliCpu, int priority) {
    return QuotaPod.builder(group, name)
        .quotaName(group)
        .request(ResourceList.of(ResourceList.CPU, milliCpu))
        .phase(PodPhase.RUNNING)
        .nodeName("node-1")
        .priority(priority)
        .build();
  }

  static QuotaPod pending(String group, String name, long milliCpu) {
    return QuotaPod.builder(group, name)
        .quotaName(group)
        .request(ResourceList.of(ResourceList.CPU, milliCpu))
        .build();
  }

  private Plugin start(SnapshotClusterState state) {
    plugin = Plugin.start(state);
    plugin.server().refreshLastState();
    return plugin;
  }

  @AfterEach
  void stop() {
    if (plugin != null) {
      plugin.close();
    }
  }

  @Test
  void theTopRowIsTheRootAndItsChildrenComeByNameWithTheTablesUnitsAndMarks() {
    start(new SnapshotClusterState().put(CLUSTER, cluster().inputs(), QuotaOptions.DEFAULTS));

    final JsonNode top = plugin.get("/api/v1/clusters/view/view/rows").json();
    assertThat(names(top)).containsExactly(SpecialGroups.ROOT);
    assertThat(top.path("rows").get(0).path("special").asText()).isEqualTo("root");

    final JsonNode children =
        plugin.get("/api/v1/clusters/view/view/rows?parent=" + SpecialGroups.ROOT).json();
    assertThat(names(children))
        .containsExactly("busy", "idle", SpecialGroups.DEFAULT, SpecialGroups.SYSTEM);
    final JsonNode busy = row(children, "busy");
    final JsonNode cpu = busy.path("dims").get(0);
    assertThat(cpu.path("resource").asText()).isEqualTo("cpu");
    assertThat(cpu.path("unit").asText()).isEqualTo("cores");
    assertThat(cpu.path("used").asLong()).isEqualTo(8_000);
    assertThat(cpu.path("runtime").asLong()).isEqualTo(8_000);
    assertThat(cpu.path("text").path("used").asText()).isEqualTo("8");
    assertThat(cpu.path("text").path("min").asText()).isEqualTo("2");
    assertThat(busy.path("borrows").toString()).isEqualTo("[\"cpu\"]");
    assertThat(busy.path("over").size()).isZero();
    assertThat(row(children, "idle").path("lends").toString()).isEqualTo("[\"cpu\"]");
    assertThat(row(children, SpecialGroups.SYSTEM).path("special").asText()).isEqualTo("system");
  }

  @Test
  void anOverUsedGroupCarriesTheDimensionsAndSinceWhenTheEngineSawItOver() {
    final Instant since = Instant.parse("2026-03-01T12:00:00Z");
    final SnapshotClusterState state =
        new SnapshotClusterState()
            .put(
                CLUSTER,
                cluster().pod(pending("idle", "i-1", 4_000)).inputs(),
                QuotaOptions.DEFAULTS)
            .overUsedSince(CLUSTER, Map.of("busy", since));
    start(state);

    final JsonNode busy =
        row(
            plugin.get("/api/v1/clusters/view/view/rows?parent=" + SpecialGroups.ROOT).json(),
            "busy");

    assertThat(busy.path("over").toString()).isEqualTo("[\"cpu\"]");
    assertThat(busy.path("overSince").asLong()).isEqualTo(since.toEpochMilli());
    assertThat(busy.path("dims").get(0).path("runtime").asLong()).isEqualTo(6_000);
  }

  @Test
  void aReservingGroupIsMarkedWithHowManyNodesItReservesAndOthersAreNot() {
    // One node of 10 cores; a second one of 10 joins so that 50 % of the cluster can be locked.
    start(
        new SnapshotClusterState()
            .put(
                CLUSTER,
                cluster()
                    .total(cpu(10_000))
                    .group(
                        quota("reserving")
                            .max(cpu(10_000))
                            .reservation(
                                ReservationSpec.of(ReservationPolicy.BEST_EFFORT, cpu(6_000))))
                    .inputs(),
                QuotaOptions.DEFAULTS));

    final JsonNode page =
        plugin.get("/api/v1/clusters/view/view/rows?parent=" + SpecialGroups.ROOT).json();

    final JsonNode reservation = row(page, "reserving").path("reservation");
    assertThat(reservation.path("text").asText()).isEqualTo("reserves 1 node");
    assertThat(reservation.path("satisfied").asBoolean()).isTrue();
    assertThat(reservation.path("nodes").size()).isEqualTo(1);
    assertThat(row(page, "busy").path("reservation").isNull()).isTrue();
  }

  @Test
  void anInvalidGroupCarriesItsReason() {
    start(
        new SnapshotClusterState()
            .put(
                CLUSTER,
                cluster().group(quota("broken").min(cpu(5_000)).max(cpu(1_000))).inputs(),
                QuotaOptions.DEFAULTS));

    final JsonNode broken =
        row(
            plugin.get("/api/v1/clusters/view/view/rows?parent=" + SpecialGroups.ROOT).json(),
            "broken");

    assertThat(broken.path("valid").asBoolean()).isFalse();
    assertThat(broken.path("reason").asText()).contains("min");
  }

  @Test
  void rowsComeAPageAtATimeWithTheTotal() {
    final Fixtures.ClusterBuilder many = Fixtures.cluster().total(cpu(100_000));
    final List<String> expected = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      final String name = String.format("team-%02d", i);
      many.group(quota(name).min(cpu(1_000)).max(cpu(2_000)));
      expected.add(name);
    }
    start(new SnapshotClusterState().put(CLUSTER, many.inputs(), QuotaOptions.DEFAULTS));

    final JsonNode page =
        plugin
            .get(
                "/api/v1/clusters/view/view/rows?parent="
                    + SpecialGroups.ROOT
                    + "&offset=10&limit=5")
            .json();

    assertThat(page.path("total").asInt()).as("the teams and two special groups").isEqualTo(32);
    assertThat(names(page)).containsExactlyElementsOf(expected.subList(10, 15));
    final JsonNode last =
        plugin
            .get("/api/v1/clusters/view/view/rows?parent=" + SpecialGroups.ROOT + "&offset=29")
            .json();
    assertThat(names(last))
        .as("the special groups come last")
        .containsExactly("team-29", SpecialGroups.DEFAULT, SpecialGroups.SYSTEM);
  }

  @Test
  void aGroupsDetailListsItsPodsWithClassPriorityNodeAndItsInFlightHolds() {
    start(
        new SnapshotClusterState()
            .put(
                CLUSTER,
                cluster().pod(pending("idle", "i-1", 1_000)).inputs(),
                QuotaOptions.DEFAULTS));
    final Plugin.Reply admitted =
        plugin.post(
            "/clusters/view/admission/pods",
            // In the namespace of idle's ElasticQuota (ns-idle), which binds its label (issue 39).
            createPod("uid-1", pod("ns-idle", "i-2").cpu("500m").quota("idle")));
    assertThat(admitted.json().path("response").path("allowed").asBoolean()).isTrue();

    final JsonNode busy = plugin.get("/api/v1/clusters/view/view/groups/busy").json();
    assertThat(busy.path("pods").get(0).path("name").asText()).isEqualTo("b-1");
    assertThat(busy.path("pods").get(0).path("priority").asInt()).isEqualTo(7);
    assertThat(busy.path("pods").get(0).path("node").asText()).isEqualTo("node-1");
    assertThat(busy.path("pods").get(0).path("class").asText()).isIn("in-quota", "over-quota");
    assertThat(busy.path("pods").get(0).path("request").path("cpu").asText()).isEqualTo("5");

    final JsonNode idle = plugin.get("/api/v1/clusters/view/view/groups/idle").json();
    assertThat(idle.path("pods").get(0).path("class").asText()).isEqualTo("pending");
    assertThat(idle.path("holds").size()).isEqualTo(1);
    assertThat(idle.path("holds").get(0).path("name").asText()).isEqualTo("i-2");
    assertThat(idle.path("holds").get(0).path("text").path("cpu").asText()).isEqualTo("0.5");
  }

  @Test
  void aDeniedPodShowsInTheRecentDenialsWithItsReasonAndRepeatsCountUp() {
    start(new SnapshotClusterState().put(CLUSTER, cluster().inputs(), QuotaOptions.DEFAULTS));

    for (int i = 0; i < 2; i++) {
      final Plugin.Reply denied =
          plugin.post(
              "/clusters/view/admission/pods",
              createPod("uid-" + i, pod("ns-busy", "huge").cpu("50").quota("busy")));
      assertThat(denied.json().path("response").path("allowed").asBoolean()).isFalse();
    }

    final JsonNode denials =
        plugin.get("/api/v1/clusters/view/view/activity").json().path("denials");
    assertThat(denials.size()).isEqualTo(1);
    assertThat(denials.get(0).path("name").asText()).isEqualTo("huge");
    assertThat(denials.get(0).path("group").asText()).isEqualTo("busy");
    assertThat(denials.get(0).path("source").asText()).isEqualTo("pod webhook");
    assertThat(denials.get(0).path("count").asInt()).isEqualTo(2);
    assertThat(denials.get(0).path("reason").asText()).contains("cpu");
    // busy's runtime with the pod would be its max of 10 cores: the code leads the reason too.
    assertThat(denials.get(0).path("code").asText()).isEqualTo("exceeds-max");
    assertThat(denials.get(0).path("reason").asText()).startsWith("exceeds-max: group busy cpu");
  }

  @Test
  void thePageIsServedFromTheJarWithAStrictContentSecurityPolicy() {
    start(new SnapshotClusterState().put(CLUSTER, cluster().inputs(), QuotaOptions.DEFAULTS));

    final Plugin.Reply root = plugin.get("/");
    assertThat(root.status()).isEqualTo(303);
    assertThat(root.headers().firstValue("Location")).contains("/ui/");
    for (final String path : List.of("/ui/", "/ui/app.js", "/ui/app.css")) {
      final Plugin.Reply file = plugin.get(path);
      assertThat(file.status()).as(path).isEqualTo(200);
      SecurityHeaders.ALL.forEach(
          (name, value) -> assertThat(file.headers().firstValue(name)).as(path).contains(value));
    }
    assertThat(plugin.get("/ui/").body()).contains("/ui/app.js").doesNotContain("<script>");
    assertThat(plugin.get("/ui/").headers().firstValue("Content-Security-Policy").orElseThrow())
        .contains("script-src 'self'")
        .contains("frame-ancestors 'none'")
        .doesNotContain("unsafe-inline");
    assertThat(plugin.get("/ui/app.js").headers().firstValue("Content-Type").orElseThrow())
        .startsWith("text/javascript");
    assertThat(plugin.get("/ui/../admission.md").status()).isEqualTo(404);
    assertThat(plugin.get("/ui/secret.txt").status()).isEqualTo(404);
  }

  @Test
  void thePagesScriptWritesWhatTheServerSaysAsTextNeverAsHtml() {
    start(new SnapshotClusterState().put(CLUSTER, cluster().inputs(), QuotaOptions.DEFAULTS));

    // Group names, reasons and the why panel's explanation come from the cluster: as HTML they
    // could carry markup into the page.
    assertThat(plugin.get("/ui/app.js").body())
        .contains("textContent")
        .doesNotContain("innerHTML")
        .doesNotContain("outerHTML")
        .doesNotContain("insertAdjacentHTML")
        .doesNotContain("document.write");
  }

  @Test
  void badQueriesAreA400AndUnknownNamesA404() {
    start(new SnapshotClusterState().put(CLUSTER, cluster().inputs(), QuotaOptions.DEFAULTS));

    assertThat(plugin.get("/api/v1/clusters/view/view/rows?limit=0").status()).isEqualTo(400);
    assertThat(plugin.get("/api/v1/clusters/view/view/rows?offset=x").json().path("error").asText())
        .contains("offset");
    assertThat(plugin.get("/api/v1/clusters/view/view/rows?parent=nobody").status()).isEqualTo(404);
    assertThat(plugin.get("/api/v1/clusters/view/view/groups/nobody").status()).isEqualTo(404);
    assertThat(plugin.get("/api/v1/clusters/nowhere/view/rows").status()).isEqualTo(404);
  }

  @Test
  void theSettingTurnsThePageItsEndpointsAndTheWhatIfOff() {
    final PluginConfig off =
        PluginSettings.config(
            Map.of(
                PluginSettings.PLAIN_HTTP.key(), "true",
                PluginSettings.BIND_ADDRESS.key(), "127.0.0.1",
                PluginSettings.PORT.key(), "0",
                PeopleSettings.VIEW_ENABLED.key(), "false"));
    plugin =
        Plugin.start(
            off,
            new SnapshotClusterState().put(CLUSTER, cluster().inputs(), QuotaOptions.DEFAULTS));
    plugin.server().refreshLastState();

    assertThat(plugin.get("/ui/").status()).isEqualTo(404);
    assertThat(plugin.get("/").status()).isEqualTo(404);
    assertThat(plugin.get("/api/v1/clusters/view/view/rows").status()).isEqualTo(404);
    assertThat(plugin.get("/api/v1/clusters/view/view/events").status()).isEqualTo(404);
    assertThat(plugin.post("/api/v1/clusters/view/what-if", "{}").status()).isEqualTo(404);
    assertThat(plugin.get("/api/v1/clusters/view/quotas").status()).isEqualTo(200);
  }

  private static List<String> names(JsonNode page) {
    final List<String> names = new ArrayList<>();
    page.path("rows").forEach(row -> names.add(row.path("name").asText()));
    return names;
  }

  private static JsonNode row(JsonNode page, String name) {
    for (final JsonNode row : page.path("rows")) {
      if (row.path("name").asText().equals(name)) {
        return row;
      }
    }
    throw new AssertionError("no row " + name + " in " + page);
  }
}
