package io.quotaflow.admission.people.explain;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.http.Plugin;
import io.quotaflow.admission.http.TestClusters;
import io.quotaflow.admission.people.view.RecentActivity;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /api/v1/clusters/{c}/pods/{namespace}/{name}/explain} (issue 27): a running pod's
 * group and class, a pending pod's blockers with what would clear them, an evicted pod's decision.
 */
class ExplainPodQueryTest {

  private Plugin plugin;
  private long room;

  @BeforeEach
  void start() {
    room = TestClusters.room(TestClusters.state(), "team-a");
    final SnapshotClusterState state =
        TestClusters.state(
            TestClusters.east()
                .pod(
                    QuotaPod.builder("alpha", "too-big")
                        .quotaName("team-a")
                        .request(ResourceList.of("cpu", room + 1))
                        .creationTime(Instant.parse("2026-03-01T12:00:00Z"))
                        .build()));
    plugin = Plugin.start(state);
  }

  @AfterEach
  void stop() {
    plugin.close();
  }

  @Test
  void aRunningPodHasItsGroupAndClassWithTheRulesNumbers() {
    final JsonNode body = plugin.get("/api/v1/clusters/east/pods/alpha/a-1/explain").json();

    final JsonNode explanation = body.get("explanation");
    assertThat(explanation.get("group").get("name").asText()).isEqualTo("team-a");
    assertThat(explanation.get("group").get("by").asText()).isEqualTo("LABEL");
    final JsonNode basis = explanation.get("quotaClass");
    assertThat(basis.get("podClass").asText()).isEqualTo("in-quota");
    // a-1 is team-a's only running pod: 1 core with it, within its min of 4.
    assertThat(basis.get("dimensions").get(0).get("with").asLong()).isEqualTo(1_000);
    assertThat(basis.get("dimensions").get(0).get("min").asLong()).isEqualTo(4_000);
    assertThat(explanation.get("admission").isNull()).isTrue();
    assertThat(body.get("text").asText())
        .contains("Group: team-a, named by its quota-name label", "Class: in-quota");
  }

  @Test
  void aPendingPodThatDoesNotFitSaysByHowMuchAndWhatWouldAdmitIt() {
    final JsonNode body = plugin.get("/api/v1/clusters/east/pods/alpha/too-big/explain").json();

    final JsonNode admission = body.get("explanation").get("admission");
    assertThat(admission.get("allowed").asBoolean()).isFalse();
    final JsonNode blocker = admission.get("blockers").get(0);
    assertThat(blocker.get("group").asText()).isEqualTo("team-a");
    // One milli-CPU more than the room the webhook would grant.
    assertThat(blocker.get("excess").asLong()).isEqualTo(1);
    assertThat(blocker.get("reason").asText()).isEqualTo("EXCEEDS_MAX");
    assertThat(body.get("text").asText())
        .contains("Admission now: it does not fit.", "holding 1m cpu finish");
  }

  @Test
  void anEvictedPodShowsTheEvictionsDecision() {
    final RecentActivity activity = plugin.server().activity();
    activity.commandIssued(
        "east",
        new RecentActivity.Eviction(
            "cmd-1",
            new PodRef("alpha", "a-1"),
            "team-a",
            "Group team-a of cluster east has used more than its runtime in [cpu] for 120 s",
            "reclaimed-after-delay",
            List.of("cpu"),
            1,
            Instant.parse("2026-03-01T12:05:00Z"),
            Optional.empty(),
            "",
            Optional.empty()));

    final JsonNode body = plugin.get("/api/v1/clusters/east/pods/alpha/a-1/explain").json();

    assertThat(body.has("eviction")).as(body.toString()).isTrue();
    assertThat(body.get("eviction").get("commandId").asText()).isEqualTo("cmd-1");
    assertThat(body.get("text").asText())
        .contains("Evicted: 2026-03-01T12:05:00Z, attempt 1", "for 120 s", "lowest priority first")
        // team-b never lends its min: what team-a borrowed beyond its own is team-b's guarantee.
        .contains(
            "In research's split of cpu, these groups use their whole guarantee now:"
                + " team-b (min 2, asks 2)");
    assertThat(body.get("eviction").get("code").asText()).isEqualTo("reclaimed-after-delay");
  }

  @Test
  void anUnknownPodIsA404() {
    final Plugin.Reply reply = plugin.get("/api/v1/clusters/east/pods/alpha/nobody/explain");

    assertThat(reply.status()).isEqualTo(404);
    assertThat(reply.json().get("error").asText()).contains("alpha/nobody");
  }
}
