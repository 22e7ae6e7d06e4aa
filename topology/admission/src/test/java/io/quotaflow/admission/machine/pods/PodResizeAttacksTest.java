package io.quotaflow.admission.machine.pods;

import static io.quotaflow.admission.http.Reviews.pod;
import static io.quotaflow.admission.http.Reviews.resizePod;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.http.Plugin;
import io.quotaflow.admission.http.Reviews;
import io.quotaflow.admission.http.TestClusters;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 24, point 6, tried as a tenant would: a pod admitted small is grown in place through {@code
 * pods/resize} (Kubernetes 1.33+). The growth is judged as a new pod of that size would be, so a
 * resize cannot take more than the group's runtime; a resize that fits, or shrinks, passes.
 * (team-b, namespace beta, fits a pod of 1 CPU and not one of 50: see TestClusters.)
 */
class PodResizeAttacksTest {

  private static final String PODS = "/clusters/east/admission/pods";
  private static Plugin plugin;

  @BeforeAll
  static void start() {
    plugin = Plugin.start(TestClusters.state());
  }

  @AfterAll
  static void stop() {
    plugin.close();
  }

  private static JsonNode resize(String from, String to) {
    final Plugin.Reply reply =
        plugin.post(
            PODS,
            resizePod(
                "r",
                pod("beta", "worker").quota("team-b").cpu(to),
                pod("beta", "worker").quota("team-b").cpu(from)));
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    return reply.json().get("response");
  }

  @Test
  void aPodGrownInPlaceBeyondItsGroupsRuntimeIsDenied() {
    final JsonNode response = resize("1", "50");

    assertThat(response.get("allowed").asBoolean()).as(response.toString()).isFalse();
    assertThat(response.get("status").get("message").asText())
        .contains("pod beta/worker growing by cpu 49")
        .contains("does not fit quota group team-b");
  }

  @Test
  void aResizeThatFitsIsAllowed() {
    final JsonNode response = resize("500m", "1");

    assertThat(response.get("allowed").asBoolean()).as(response.toString()).isTrue();
  }

  @Test
  void aResizeThatShrinksIsAllowed() {
    final JsonNode response = resize("50", "1");

    assertThat(response.get("allowed").asBoolean()).as(response.toString()).isTrue();
  }

  @Test
  void aDeniedResizeHoldsNothingForLaterPods() {
    resize("1", "50");
    final JsonNode fits =
        plugin
            .post(PODS, Reviews.createPod("c", pod("beta", "next").quota("team-b").cpu("1")))
            .json()
            .get("response");

    assertThat(fits.get("allowed").asBoolean()).as(fits.toString()).isTrue();
  }
}
