package io.quotaflow.admission.http;

import static io.quotaflow.admission.http.Reviews.createPod;
import static io.quotaflow.admission.http.Reviews.pod;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.machine.FailurePolicy;
import io.quotaflow.admission.machine.pods.PodWebhook;
import io.quotaflow.admission.state.MutableClock;
import io.quotaflow.admission.state.SnapshotClusterState;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 39, point 2, tried as a tenant who waits for the plugin to fail open: the checks of a pod's
 * label that need no engine state still deny (a label naming the root, a special group outside its
 * namespaces; with a last tree read, however old, a parent group or a group that does not exist),
 * and a pod with an ordinary label is still let in by the failure policy.
 */
class FailOpenLabelAttacksTest {

  private static final String PODS = "/clusters/east/admission/pods";
  private static final Instant READ_AT = Instant.parse("2026-03-01T12:00:00Z");
  private static final PluginConfig.Staleness TWO_SECONDS =
      new PluginConfig.Staleness(Duration.ofSeconds(2), Duration.ofSeconds(1));

  private final MutableClock clock = new MutableClock(READ_AT);
  private final SnapshotClusterState state = TestClusters.state();
  private Plugin plugin = start();

  @AfterEach
  void stop() {
    plugin.close();
  }

  @Test
  void withoutAnyStateARootOrSystemGroupLabelIsStillDenied() {
    plugin.close();
    state.unavailable("east", "the cluster's task is being restored");
    plugin = start();
    plugin.server().refreshLastState();

    final JsonNode root = review(pod("beta", "r").quota("koordinator-root-quota").cpu("1"));
    final JsonNode system = review(pod("beta", "s").quota("koordinator-system-quota").cpu("1"));
    final JsonNode plain = review(pod("beta", "b").quota("team-b").cpu("1"));

    assertDenied(root, "parent-group", "names the root group koordinator-root-quota");
    assertDenied(system, "namespace-not-bound", "admits only the pods of namespaces");
    assertThat(plain.get("allowed").asBoolean()).as(plain.toString()).isTrue();
    assertThat(plain.get("warnings").get(0).asText()).contains("fail-open");
  }

  @Test
  void withATooOldLastTreeAParentOrUnknownGroupLabelIsStillDenied() {
    plugin.server().refreshLastState();
    state.unavailable("east", "the cluster's task is being restored");
    clock.advance(Duration.ofMinutes(5));

    final JsonNode parent = review(pod("beta", "p").quota("research").cpu("1"));
    final JsonNode unknown = review(pod("beta", "u").quota("no-such-team").cpu("1"));
    final JsonNode plain = review(pod("beta", "b").quota("team-b").cpu("1"));

    assertDenied(parent, "parent-group", "names the parent group research");
    assertDenied(unknown, "unknown-group", "no-such-team, which does not exist");
    assertThat(plain.get("allowed").asBoolean()).as(plain.toString()).isTrue();
    assertThat(plain.get("warnings").get(0).asText()).contains("fail-open", "older than");
  }

  private Plugin start() {
    return Plugin.start(
        PluginConfig.plainHttpOnLoopback(0)
            .withFailurePolicy(FailurePolicy.FAIL_OPEN)
            .withStaleness(TWO_SECONDS),
        state,
        clock);
  }

  private static void assertDenied(JsonNode response, String code, String words) {
    assertThat(response.get("allowed").asBoolean()).as(response.toString()).isFalse();
    assertThat(response.get("status").get("code").asInt()).isEqualTo(403);
    assertThat(response.get("status").get("message").asText()).contains(words);
    assertThat(response.get("auditAnnotations").get(PodWebhook.REASON_ANNOTATION).asText())
        .isEqualTo(code);
  }

  private JsonNode review(Reviews.PodJson pod) {
    final Plugin.Reply reply = plugin.post(PODS, createPod("u", pod));
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    return reply.json().get("response");
  }
}
