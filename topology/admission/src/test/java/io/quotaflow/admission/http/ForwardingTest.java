package io.quotaflow.admission.http;

import static io.quotaflow.admission.http.Reviews.createPod;
import static io.quotaflow.admission.http.Reviews.pod;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.quota.PodRef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Two instances: {@code owner} holds cluster east, {@code front} forwards to it. */
class ForwardingTest {

  private final SnapshotClusterState ownerState = TestClusters.state();
  private final Plugin owner = Plugin.start(ownerState);
  private final SnapshotClusterState frontState =
      new SnapshotClusterState().remote("east", "127.0.0.1", owner.port());
  private final Plugin front = Plugin.start(frontState);

  @AfterEach
  void stop() {
    front.close();
    owner.close();
  }

  @Test
  void aReviewForAClusterHeldElsewhereIsAnsweredByItsOwner() {
    final long room = TestClusters.room(ownerState, "team-a");

    final JsonNode first =
        front
            .post(
                "/clusters/east/admission/pods", createPod("u1", pod("alpha", "a").cpu(room + "m")))
            .json()
            .get("response");
    final JsonNode second =
        front
            .post("/clusters/east/admission/pods", createPod("u2", pod("alpha", "b").cpu("1m")))
            .json()
            .get("response");

    assertThat(first.get("uid").asText()).isEqualTo("u1");
    assertThat(first.get("allowed").asBoolean()).isTrue();
    assertThat(second.get("allowed").asBoolean()).isFalse();
    assertThat(owner.server().holds().of("east").holds(new PodRef("alpha", "a"))).isTrue();
    assertThat(front.server().holds().find("east")).isEmpty();
  }

  @Test
  void queriesAreForwardedAndTheClusterListSpansInstances() {
    final Plugin.Reply tree = front.get("/api/v1/clusters/east/quotas/team-a");
    final JsonNode clusters = front.get("/api/v1/clusters").json();

    assertThat(tree.status()).isEqualTo(200);
    assertThat(tree.json().get("quota").get("name").asText()).isEqualTo("team-a");
    assertThat(clusters.get("clusters")).extracting(JsonNode::asText).containsExactly("east");
  }

  @Test
  void anUnreachableOwnerIsAnsweredByTheFailurePolicy() {
    owner.close();

    final JsonNode response =
        front
            .post("/clusters/east/admission/pods", createPod("u", pod("alpha", "a").cpu("1")))
            .json()
            .get("response");
    final JsonNode clusters = front.get("/api/v1/clusters").json();

    assertThat(response.get("allowed").asBoolean()).isTrue();
    assertThat(response.get("warnings").get(0).asText()).contains("did not answer", "fail-open");
    assertThat(clusters.get("unreachable")).hasSize(1);
  }

  @Test
  void aForwardedRequestIsNeverForwardedAgain() {
    // The owner believes the front holds east: a forwarded request must not bounce back.
    ownerState.remote("east", "127.0.0.1", front.port());

    final JsonNode response =
        front
            .post("/clusters/east/admission/pods", createPod("u", pod("alpha", "a").cpu("1")))
            .json()
            .get("response");

    assertThat(response.get("allowed").asBoolean()).isTrue();
    assertThat(response.get("warnings").get(0).asText()).contains("moved while");
  }
}
