package io.quotaflow.admission.people.explain;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotaflow.admission.endpoint.Answer;
import io.quotaflow.admission.http.Plugin;
import io.quotaflow.admission.http.TestClusters;
import io.quotaflow.admission.http.auth.Access;
import io.quotaflow.admission.http.auth.User;
import io.quotaflow.admission.http.auth.Viewer;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.admission.state.VisibleClusterView;
import io.quotaflow.explain.ExplanationText;
import io.quotaflow.quota.Quantities;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.TreeSnapshot;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code GET .../quotas/{group}/explain} (issue 27): the explanation of the runtime the tree shows,
 * as the core gives it for the same inputs, and a clear 4xx for a bad question.
 */
class ExplainQueryTest {

  private static Plugin plugin;

  @BeforeAll
  static void start() {
    plugin = Plugin.start(TestClusters.state());
  }

  @AfterAll
  static void stop() {
    plugin.close();
  }

  @Test
  void explainsTheRuntimeTheTreeShowsAsTheCoreDoes() {
    final JsonNode body =
        plugin.get("/api/v1/clusters/east/quotas/team-a/explain?resource=cpu").json();
    final long shown =
        plugin
            .get("/api/v1/clusters/east/quotas/team-a")
            .json()
            .get("quota")
            .get("runtime")
            .get("cpu")
            .asLong();

    final JsonNode explanation = body.get("explanation");
    assertThat(explanation.get("runtime").asLong()).isEqualTo(shown);
    final JsonNode levels = explanation.get("levels");
    assertThat(levels).hasSize(2);
    assertThat(levels.get(0).get("source").asText()).isEqualTo("CLUSTER");
    assertThat(levels.get(1).get("parent").asText()).isEqualTo("research");
    assertThat(explanation.get("request").get("floorRule").asText()).isEqualTo("LENDS_NOTHING");
    // The same inputs through the core's own state give the same text, word for word.
    final ClusterQuotaState core =
        ClusterQuotaState.restore(
            QuotaOptions.DEFAULTS,
            TestClusters.east().inputs(),
            new TreeSnapshot(ResourceList.empty(), List.of(), List.of()));
    core.recompute();
    assertThat(body.get("text").asText())
        .isEqualTo(ExplanationText.of(core.explainer().explain("team-a", "cpu").orElseThrow()))
        .contains("team-a: runtime " + Quantities.format("cpu", shown) + " cpu");
  }

  @Test
  void aTargetAddsWhatTheGroupWouldNeed() {
    final JsonNode body =
        plugin.get("/api/v1/clusters/east/quotas/team-a/explain?resource=cpu&target=6").json();

    assertThat(body.get("reach").get("target").asLong()).isEqualTo(6_000);
    assertThat(body.get("text").asText()).contains("to reach 6:");
  }

  @Test
  void aBadQuestionIsA4xxThatSaysWhy() {
    final Plugin.Reply noResource = plugin.get("/api/v1/clusters/east/quotas/team-a/explain");
    final Plugin.Reply badTarget =
        plugin.get("/api/v1/clusters/east/quotas/team-a/explain?resource=cpu&target=lots");
    final Plugin.Reply unknown =
        plugin.get("/api/v1/clusters/east/quotas/nobody/explain?resource=cpu");

    assertThat(noResource.status()).isEqualTo(400);
    assertThat(noResource.json().get("error").asText()).contains("resource is required");
    assertThat(badTarget.status()).isEqualTo(400);
    assertThat(badTarget.json().get("error").asText()).contains("not a quantity of cpu");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.json().get("error").asText()).contains("nobody");
  }

  @Test
  void aGroupWithoutSplitIsExplainedInANote() {
    final JsonNode body =
        plugin
            .get("/api/v1/clusters/east/quotas/koordinator-system-quota/explain?resource=cpu")
            .json();

    assertThat(body.get("explanation").get("levels")).isEmpty();
    assertThat(body.get("explanation").get("notes").get(0).asText()).contains("whole cluster");
  }

  /**
   * A tenant who may see team-a's pods only: the explanation is computed over the whole cluster
   * (team-a's runtime is the true one) and the groups the tenant may not see are not named.
   */
  @Test
  void aTenantSeesTheTrueRuntimeWithoutTheNamesOfGroupsItMayNotSee() throws Exception {
    final ClusterView live = TestClusters.state().cluster("east").orElseThrow();
    final Access access =
        new Access() {
          @Override
          public Optional<User> authenticate(String token) {
            return Optional.empty();
          }

          @Override
          public boolean allowed(
              User user, String verb, String group, String resource, String namespace) {
            return namespace.equals("alpha");
          }
        };
    final VisibleClusterView tenant =
        new VisibleClusterView(live, Viewer.of(new User("alice", List.of()), access));

    final Answer answer =
        ExplainQuery.of("team-a", "resource=cpu", QuotaOptions.DEFAULTS)
            .decide("east", null, tenant);
    final JsonNode body = new ObjectMapper().readTree(answer.body());
    final Answer full =
        ExplainQuery.of("team-a", "resource=cpu", QuotaOptions.DEFAULTS).decide("east", null, live);
    final JsonNode whole = new ObjectMapper().readTree(full.body());

    assertThat(answer.status()).isEqualTo(200);
    assertThat(body.get("explanation").get("runtime"))
        .isEqualTo(whole.get("explanation").get("runtime"));
    assertThat(body.get("text").asText())
        .doesNotContain("team-b", "ops", "differs")
        .contains("another group 1", "team-a", "research");
    assertThat(whole.get("text").asText()).contains("team-b", "ops");
  }
}
