package io.quotaflow.admission.http;

import static io.quotaflow.admission.http.Reviews.createPod;
import static io.quotaflow.admission.http.Reviews.createQuota;
import static io.quotaflow.admission.http.Reviews.pod;
import static io.quotaflow.admission.http.Reviews.quota;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.endpoint.StaleAnswers;
import io.quotaflow.admission.machine.FailurePolicy;
import io.quotaflow.admission.state.MutableClock;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.quota.Quantities;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * While the stores cannot be read, every endpoint answers from the cluster's last state as before,
 * stating its age measured by the injected clock; once that state is older than {@code
 * admission.max.staleness} (2 s here), the failure policy answers.
 */
class LastStateAnswersTest {

  private static final String PODS = "/clusters/east/admission/pods";
  private static final String FILTER = "/clusters/east/scheduler/filter";
  private static final Instant READ_AT = Instant.parse("2026-03-01T12:00:00Z");
  private static final PluginConfig.Staleness TWO_SECONDS =
      new PluginConfig.Staleness(Duration.ofSeconds(2), Duration.ofSeconds(1));

  private final MutableClock clock = new MutableClock(READ_AT);
  private final SnapshotClusterState state = TestClusters.state();
  private final long room = TestClusters.room(state, "team-a");
  private Plugin plugin = start(FailurePolicy.FAIL_OPEN);

  @AfterEach
  void stop() {
    plugin.close();
  }

  @Test
  void aRebalanceIsAnsweredFromTheLastStateAsBeforeWithItsAge() {
    final JsonNode liveFits = review(createPod("u1", pod("alpha", "p1").cpu("1m")));
    rebalance(Duration.ofMillis(1_500));

    final Plugin.Reply reply = plugin.post(PODS, createPod("u2", pod("alpha", "p2").cpu("1m")));
    final JsonNode fits = reply.json().get("response");
    final JsonNode tooBig = review(createPod("u3", pod("alpha", "p3").cpu((room + 1) + "m")));

    assertThat(liveFits.has("warnings")).isFalse();
    assertThat(fits.get("allowed").asBoolean()).isTrue();
    assertThat(fits.get("warnings").get(0).asText())
        .contains("last state of cluster east", "as of 2026-03-01T12:00:00Z", "1500 ms old")
        .contains("being restored")
        .doesNotContain("could not check");
    assertThat(fits.get("auditAnnotations").get("state-as-of").asText())
        .isEqualTo("2026-03-01T12:00:00Z");
    assertThat(fits.get("auditAnnotations").get("state-age-ms").asText()).isEqualTo("1500");
    assertThat(reply.headers().firstValue(StaleAnswers.AGE_HEADER)).contains("1500");
    assertThat(tooBig.get("allowed").asBoolean()).isFalse();
    assertThat(tooBig.get("status").get("code").asInt()).isEqualTo(403);
    assertThat(tooBig.get("status").get("message").asText()).contains("does not fit quota group");
    assertThat(tooBig.get("warnings").get(0).asText()).contains("1500 ms old");
  }

  @Test
  void inFlightHoldsStillCountWhileAnsweringFromTheLastState() {
    rebalance(Duration.ofMillis(100));

    final JsonNode first = review(createPod("u1", pod("alpha", "a").cpu(room + "m")));
    final JsonNode second = review(createPod("u2", pod("alpha", "b").cpu("1m")));

    assertThat(first.get("allowed").asBoolean()).isTrue();
    assertThat(second.get("allowed").asBoolean()).isFalse();
    assertThat(second.get("status").get("message").asText())
        .contains("in-flight " + Quantities.format("cpu", room));
  }

  @Test
  void aStateOlderThanTheMaxStalenessFallsBackToTheFailurePolicy() {
    rebalance(Duration.ofMillis(2_001));

    final JsonNode response = review(createPod("u", pod("alpha", "p").cpu("1m")));

    assertThat(response.get("allowed").asBoolean()).isTrue();
    assertThat(response.get("warnings")).hasSize(1);
    assertThat(response.get("warnings").get(0).asText())
        .contains("could not check", "being restored", "fail-open")
        .contains("2001 ms old, older than admission.max.staleness (PT2S)");
    assertThat(response.has("auditAnnotations")).isFalse();
  }

  @Test
  void failClosedDeniesOnlyOnceTheLastStateIsTooOld() {
    plugin.close();
    plugin = start(FailurePolicy.FAIL_CLOSED);
    rebalance(Duration.ofSeconds(2));
    final JsonNode young = review(createPod("u1", pod("alpha", "p1").cpu("1m")));

    clock.advance(Duration.ofMillis(1));
    final JsonNode old = review(createPod("u2", pod("alpha", "p2").cpu("1m")));

    assertThat(young.get("allowed").asBoolean()).isTrue();
    assertThat(old.get("allowed").asBoolean()).isFalse();
    assertThat(old.get("status").get("code").asInt()).isEqualTo(503);
    assertThat(old.get("status").get("message").asText())
        .contains("fail-closed", "admission.max.staleness");
  }

  @Test
  void theSchedulerFilterStatesTheAgeInItsFailureReasonsAndHeaders() {
    rebalance(Duration.ofMillis(700));

    final Plugin.Reply passes =
        plugin.post(FILTER, Reviews.filterArgsWithNames(pod("alpha", "s1").cpu("1m"), "n1"));
    final Plugin.Reply fails =
        plugin.post(
            FILTER,
            Reviews.filterArgsWithNames(pod("alpha", "s2").cpu((room + 1) + "m"), "n1", "n2"));

    assertThat(passes.json().get("NodeNames")).extracting(JsonNode::asText).containsExactly("n1");
    assertThat(passes.json().get("Error").asText()).isEmpty();
    assertThat(passes.headers().firstValue(StaleAnswers.AS_OF_HEADER))
        .contains("2026-03-01T12:00:00Z");
    assertThat(passes.headers().firstValue(StaleAnswers.AGE_HEADER)).contains("700");
    final JsonNode failed = fails.json().get("FailedAndUnresolvableNodes");
    assertThat(failed.get("n1").asText())
        .contains("does not fit quota group team-a", "last state of cluster east", "700 ms old");
    assertThat(failed.get("n2").asText()).contains("700 ms old");
    assertThat(fails.json().get("Error").asText()).isEmpty();
  }

  @Test
  void aFilterPassByTheFailurePolicyIsToldApartFromAPassByQuota() {
    final Plugin.Reply checked =
        plugin.post(FILTER, Reviews.filterArgsWithNames(pod("alpha", "s1").cpu("1m"), "n1"));
    rebalance(Duration.ofMillis(2_001));
    final Plugin.Reply unchecked =
        plugin.post(FILTER, Reviews.filterArgsWithNames(pod("alpha", "s2").cpu("1m"), "n1"));

    // The extender protocol has no text for a passing node: both bodies pass n1 alike.
    assertThat(unchecked.json().get("NodeNames")).isEqualTo(checked.json().get("NodeNames"));
    assertThat(checked.headers().firstValue(JettyHandler.OUTCOME_HEADER)).contains("allowed");
    assertThat(unchecked.headers().firstValue(JettyHandler.OUTCOME_HEADER)).contains("fail-open");
  }

  @Test
  void theQueryApiServesTheLastStateWithItsStaleness() {
    rebalance(Duration.ofMillis(250));

    final Plugin.Reply tree = plugin.get("/api/v1/clusters/east/quotas");
    final Plugin.Reply group = plugin.get("/api/v1/clusters/east/quotas/team-a");

    assertThat(tree.status()).isEqualTo(200);
    assertThat(tree.json().get("quotas")).isNotEmpty();
    assertThat(tree.json().get("staleness").get("asOf").asText()).isEqualTo("2026-03-01T12:00:00Z");
    assertThat(tree.json().get("staleness").get("ageMillis").asLong()).isEqualTo(250);
    assertThat(tree.json().get("staleness").get("reason").asText()).contains("being restored");
    assertThat(group.status()).isEqualTo(200);
    assertThat(group.json().get("quota").get("name").asText()).isEqualTo("team-a");
    assertThat(group.json().get("pods")).hasSize(1);
    assertThat(group.json().get("staleness").get("ageMillis").asLong()).isEqualTo(250);
  }

  @Test
  void theClusterListDuringARebalanceNamesTheClustersOfTheLastStateWithItsAge() {
    rebalance(Duration.ofMillis(400));
    state.unlistable(
        "Cannot get state store runtime because the stream thread is PARTITIONS_ASSIGNED");

    final Plugin.Reply clusters = plugin.get("/api/v1/clusters");

    assertThat(clusters.status()).isEqualTo(200);
    assertThat(clusters.json().get("clusters").toString()).contains("\"east\"");
    assertThat(clusters.json().get("staleness").get("ageMillis").asLong()).isEqualTo(400);
    assertThat(clusters.json().get("staleness").get("reason").asText())
        .contains("PARTITIONS_ASSIGNED");
    assertThat(clusters.headers().firstValue(StaleAnswers.AGE_HEADER)).contains("400");
  }

  @Test
  void theClusterListWithoutAnyYoungLastStateIsUnavailable() {
    rebalance(Duration.ofMillis(2_001));
    state.unlistable("the stream thread is PARTITIONS_ASSIGNED");

    final Plugin.Reply clusters = plugin.get("/api/v1/clusters");

    assertThat(clusters.status()).isEqualTo(503);
    assertThat(clusters.json().get("error").asText()).contains("PARTITIONS_ASSIGNED");
  }

  @Test
  void theQuotaWebhookChecksAgainstTheLastGroups() {
    rebalance(Duration.ofMillis(300));

    final JsonNode valid =
        answerQuota(
            createQuota("q1", quota("team-c").parent("research").min("cpu", "1").max("cpu", "2")));
    final JsonNode invalid =
        answerQuota(
            createQuota("q2", quota("team-c").parent("research").min("cpu", "5").max("cpu", "3")));

    assertThat(valid.get("allowed").asBoolean()).isTrue();
    assertThat(valid.get("warnings").get(0).asText()).contains("300 ms old");
    assertThat(invalid.get("allowed").asBoolean()).isFalse();
    assertThat(invalid.get("status").get("message").asText())
        .contains("min-not-above-max", "children-mins-fit-parent-min");
    assertThat(invalid.get("warnings").get(0).asText()).contains("300 ms old");
  }

  @Test
  void metricsGaugeTheAgeOfTheLastStateAndCountStaleAnswers() {
    rebalance(Duration.ofMillis(1_250));
    review(createPod("u1", pod("alpha", "p1").cpu("1m")));
    review(createPod("u2", pod("alpha", "p2").cpu("1m")));

    final String metrics = plugin.get("/metrics").body();

    assertThat(metrics)
        .contains("quotaflow_admission_state_age_seconds{cluster=\"east\"} 1.25")
        .contains(
            "quotaflow_admission_stale_answers_total{cluster=\"east\",endpoint=\"admission-pods\"}"
                + " 2.0");
  }

  @Test
  void withoutAnyLastStateTheFailurePolicyAnswersAtOnce() {
    plugin.close();
    state.unavailable("east", "the cluster's task is being restored");
    plugin = start(FailurePolicy.FAIL_OPEN);
    plugin.server().refreshLastState();

    final JsonNode response = review(createPod("u", pod("alpha", "p").cpu("1m")));

    assertThat(response.get("warnings").get(0).asText()).contains("could not check", "fail-open");
  }

  @Test
  void aQuotaChangeThatCannotBeCheckedIsRefusedEvenUnderFailOpen() {
    plugin.close();
    state.unavailable("east", "the cluster's task is being restored");
    plugin = start(FailurePolicy.FAIL_OPEN);
    plugin.server().refreshLastState();

    final JsonNode response =
        answerQuota(Reviews.createQuota("q", Reviews.quota("greedy").min("cpu", "100")));

    assertThat(response.get("allowed").asBoolean()).isFalse();
    assertThat(response.get("status").get("code").asInt()).isEqualTo(503);
    assertThat(response.get("status").get("message").asText())
        .contains("could not check", "being restored", "fail-closed");
  }

  @Test
  void aForwardedRequestTheNewOwnerCannotReadIsAnsweredFromTheLastStateHere() {
    // The old holder (this plugin) keeps east's last state; the new owner has none yet.
    final SnapshotClusterState ownerState = TestClusters.state().unavailable("east", "restoring");
    try (Plugin owner = Plugin.start(config(FailurePolicy.FAIL_CLOSED), ownerState, clock)) {
      plugin.server().refreshLastState();
      state.remote("east", "127.0.0.1", owner.port());

      final JsonNode response = review(createPod("u", pod("alpha", "p").cpu("1m")));

      assertThat(response.get("allowed").asBoolean()).as(response.toString()).isTrue();
      assertThat(response.get("warnings").get(0).asText())
          .contains("last state of cluster east", "cannot read it yet");
    }
  }

  @Test
  void aNewOwnerThatDoesNotKnowTheClusterYetLetsTheLastStateHereAnswer() {
    // The task just moved to the owner and is restoring: the cluster reads as unknown there.
    try (Plugin owner =
        Plugin.start(config(FailurePolicy.FAIL_CLOSED), new SnapshotClusterState(), clock)) {
      plugin.server().refreshLastState();
      state.remote("east", "127.0.0.1", owner.port());

      final JsonNode response = review(createPod("u", pod("alpha", "p").cpu("1m")));
      final Plugin.Reply unknown = plugin.get("/api/v1/clusters/north/quotas");

      assertThat(response.get("allowed").asBoolean()).as(response.toString()).isTrue();
      assertThat(response.get("warnings").get(0).asText()).contains("cannot read it yet");
      assertThat(unknown.status()).isEqualTo(404);
    }
  }

  /** The stores become unreadable after the last state was read, {@code age} ago. */
  private void rebalance(Duration age) {
    plugin.server().refreshLastState();
    state.unavailable("east", "the cluster's task is being restored");
    clock.advance(age);
  }

  private Plugin start(FailurePolicy policy) {
    return Plugin.start(config(policy), state, clock);
  }

  private static PluginConfig config(FailurePolicy policy) {
    return PluginConfig.plainHttpOnLoopback(0).withFailurePolicy(policy).withStaleness(TWO_SECONDS);
  }

  private JsonNode review(String body) {
    final Plugin.Reply reply = plugin.post(PODS, body);
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    return reply.json().get("response");
  }

  private JsonNode answerQuota(String body) {
    final Plugin.Reply reply = plugin.post("/clusters/east/admission/quotas", body);
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    return reply.json().get("response");
  }
}
