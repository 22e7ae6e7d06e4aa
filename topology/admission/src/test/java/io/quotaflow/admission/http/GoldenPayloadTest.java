package io.quotaflow.admission.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.machine.AdmissionMode;
import io.quotaflow.admission.state.SnapshotClusterState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The exact JSON exchanged with the API server (AdmissionReview v1) and kube-scheduler
 * (ExtenderArgs, ExtenderFilterResult), pinned by files written by hand from the Kubernetes types.
 * In cluster {@code east}, team-a uses 1000m and, with a new pod counted, may borrow up to its max
 * of 6000m (research receives up to 9000m), so a pod of 5001m is one milli-core too big. (Before
 * the what-if check, the bound was team-a's runtime without the pod, 4000m, and the example used
 * 3001m; such a pod now fits, because counting it raises team-a's runtime.)
 */
class GoldenPayloadTest {

  private final SnapshotClusterState state = TestClusters.state();
  private Plugin plugin = Plugin.start(state);

  @AfterEach
  void stop() {
    plugin.close();
  }

  @Test
  void aRealisticPodCreationReviewIsDeniedWithTheGoldenAnswer() {
    final Plugin.Reply reply =
        plugin.post("/clusters/east/admission/pods", Golden.text("review-create-pod.json"));

    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.json()).isEqualTo(Golden.json("review-denied.json"));
  }

  @Test
  void aPodThatFitsGetsTheGoldenAllowedAnswer() {
    final String fits = Golden.text("review-create-pod.json").replace("5001m", "5000m");

    final Plugin.Reply reply = plugin.post("/clusters/east/admission/pods", fits);

    assertThat(reply.json()).isEqualTo(Golden.json("review-allowed.json"));
  }

  @Test
  void warnModeGetsTheGoldenWarningAnswer() {
    plugin.close();
    plugin = Plugin.start(PluginConfig.plainHttpOnLoopback(0).withMode(AdmissionMode.WARN), state);

    final Plugin.Reply reply =
        plugin.post("/clusters/east/admission/pods", Golden.text("review-create-pod.json"));

    assertThat(reply.json()).isEqualTo(Golden.json("review-warned.json"));
  }

  @Test
  void extenderArgsWithNodeObjectsGetTheGoldenFilterResult() {
    final Plugin.Reply reply =
        plugin.post("/clusters/east/scheduler/filter", Golden.text("extender-args-nodes.json"));

    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.json()).isEqualTo(Golden.json("extender-result-nodes-failed.json"));
  }

  @Test
  void extenderArgsWithNodeNamesGetTheGoldenFilterResult() {
    final Plugin.Reply reply =
        plugin.post("/clusters/east/scheduler/filter", Golden.text("extender-args-names.json"));

    assertThat(reply.json()).isEqualTo(Golden.json("extender-result-names-passed.json"));
  }

  @Test
  void aFittingPodWithNodeObjectsPassesEveryNodeUnchanged() {
    final String fits = Golden.text("extender-args-nodes.json").replace("5001m", "5000m");
    final JsonNode sentNodes = Golden.json("extender-args-nodes.json").get("Nodes");

    final JsonNode result = plugin.post("/clusters/east/scheduler/filter", fits).json();

    assertThat(result.get("Nodes")).isEqualTo(sentNodes);
    assertThat(result.get("NodeNames").isNull()).isTrue();
    assertThat(result.get("FailedNodes").isEmpty()).isTrue();
    assertThat(result.get("FailedAndUnresolvableNodes").isEmpty()).isTrue();
    assertThat(result.get("Error").asText()).isEmpty();
  }
}
