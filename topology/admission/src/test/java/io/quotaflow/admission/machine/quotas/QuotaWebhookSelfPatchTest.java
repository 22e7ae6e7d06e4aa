package io.quotaflow.admission.machine.quotas;

import static io.quotaflow.admission.http.Reviews.quota;
import static io.quotaflow.admission.http.Reviews.quotaReview;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.http.Plugin;
import io.quotaflow.admission.http.Reviews.QuotaJson;
import io.quotaflow.admission.http.TestClusters;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.quota.SpecialGroups;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The writes of runtimes and status (quotaflow's connectors, Koordinator's controllers) pass the
 * quota webhook even on a group whose tree is invalid: an UPDATE that changes neither the spec nor
 * a label or annotation the tree reads is allowed unchecked, whatever the mode of failure.
 */
class QuotaWebhookSelfPatchTest {

  private static final String PATH = "/clusters/east/admission/quotas";
  private static final String RUNTIME = "quota.scheduling.koordinator.sh/runtime";

  private final SnapshotClusterState state = TestClusters.state();
  private Plugin plugin = Plugin.start(state);

  @AfterEach
  void stop() {
    plugin.close();
  }

  /** team-c below research: min above max, and the children's mins exceed research's. */
  private static QuotaJson invalidTeamC() {
    return quota("team-c").parent("research").min("cpu", "5").max("cpu", "3");
  }

  private JsonNode update(String uid, UnaryOperator<QuotaJson> change) {
    final Plugin.Reply reply =
        plugin.post(PATH, quotaReview(uid, "UPDATE", change.apply(invalidTeamC()), invalidTeamC()));
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    return reply.json().get("response");
  }

  @Test
  void aStatusOnlyUpdateOfAGroupWhoseTreeIsInvalidIsAllowed() {
    final JsonNode response = update("s1", quota -> quota.used("cpu", "2"));

    assertThat(response.get("allowed").asBoolean()).isTrue();
    assertThat(response.path("warnings").isEmpty()).isTrue();
  }

  @Test
  void anAnnotationOnlyUpdateOfAGroupWhoseTreeIsInvalidIsAllowed() {
    final JsonNode koordinator =
        update(
            "a1",
            quota ->
                quota
                    .annotation(RUNTIME, "{\"cpu\":\"3\"}")
                    .annotation("quota.scheduling.koordinator.sh/request", "{\"cpu\":\"4\"}"));
    final JsonNode shadow =
        update("a2", quota -> quota.annotation("quotaflow.io/runtime", "{\"cpu\":\"3\"}"));
    final JsonNode unrelatedLabel = update("a3", quota -> quota.label("team", "c"));

    assertThat(koordinator.get("allowed").asBoolean()).isTrue();
    assertThat(shadow.get("allowed").asBoolean()).isTrue();
    assertThat(unrelatedLabel.get("allowed").asBoolean()).isTrue();
  }

  @Test
  void anUpdateOfWhatTheTreeReadsIsStillChecked() {
    final JsonNode spec = update("c1", quota -> quota.max("cpu", "4"));
    final JsonNode sharedWeight =
        update(
            "c2",
            quota ->
                quota.annotation(
                    "quota.scheduling.koordinator.sh/shared-weight", "{\"cpu\":\"1\"}"));
    final JsonNode lendingLimit =
        update("c3", quota -> quota.annotation("quotaflow.io/lending-limit", "{\"cpu\":\"1\"}"));
    final JsonNode parent = update("c4", quota -> quota.parent("ops"));

    for (final JsonNode response : java.util.List.of(spec, sharedWeight, lendingLimit, parent)) {
      assertThat(response.get("allowed").asBoolean()).as(response.toString()).isFalse();
      assertThat(response.get("status").get("message").asText()).contains("min-not-above-max");
    }
  }

  @Test
  void aStatusWriteIsAllowedEvenWhenThePluginFailsClosedAndCannotDecide() {
    // No state was ever read: the plugin has no last state to answer from.
    plugin.close();
    state.unavailable("east", "the cluster's task is being restored");
    plugin = Plugin.startFailClosed(state);
    plugin.server().refreshLastState();

    final JsonNode status = update("f1", quota -> quota.used("cpu", "2"));
    final JsonNode spec = update("f2", quota -> quota.min("cpu", "1"));

    assertThat(status.get("allowed").asBoolean()).isTrue();
    assertThat(spec.get("allowed").asBoolean()).isFalse();
    assertThat(spec.get("status").get("code").asInt()).isEqualTo(503);
  }

  @Test
  void aRuntimeWriteOnTheRootGroupIsAllowed() {
    final QuotaJson root = quota(SpecialGroups.ROOT);
    final JsonNode response =
        plugin
            .post(
                PATH,
                quotaReview(
                    "r1",
                    "UPDATE",
                    quota(SpecialGroups.ROOT).annotation(RUNTIME, "{\"cpu\":\"10\"}"),
                    root))
            .json()
            .get("response");
    final JsonNode specOfRoot =
        plugin
            .post(
                PATH, quotaReview("r2", "UPDATE", quota(SpecialGroups.ROOT).min("cpu", "1"), root))
            .json()
            .get("response");

    assertThat(response.get("allowed").asBoolean()).isTrue();
    assertThat(specOfRoot.get("allowed").asBoolean()).isFalse();
  }
}
