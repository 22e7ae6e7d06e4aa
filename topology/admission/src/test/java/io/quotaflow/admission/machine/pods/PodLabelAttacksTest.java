package io.quotaflow.admission.machine.pods;

import static io.quotaflow.admission.http.Reviews.createPod;
import static io.quotaflow.admission.http.Reviews.pod;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.http.Plugin;
import io.quotaflow.admission.http.Reviews;
import io.quotaflow.admission.http.TestClusters;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 24, point 1, tried as a tenant would: a pod that names another team's group, or the system
 * group, in its quota-name label is denied with a message naming the group, the namespace and how
 * to bind it; a pod of a namespace bound to the group is judged on quota as before. (team-b's
 * ElasticQuota lives in namespace beta, see TestClusters.)
 */
class PodLabelAttacksTest {

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

  private static JsonNode review(Reviews.PodJson pod) {
    final Plugin.Reply reply = plugin.post(PODS, createPod("u", pod));
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    return reply.json().get("response");
  }

  @Test
  void aPodNamingAnotherTeamsGroupIsDeniedWithTheBindingMessage() {
    final JsonNode response = review(pod("playground", "steal").quota("team-b").cpu("1m"));

    assertThat(response.get("allowed").asBoolean()).isFalse();
    assertThat(response.get("status").get("message").asText())
        .contains("namespace playground is not bound to quota group team-b")
        .contains("its ElasticQuota is in namespace beta")
        .contains("quota.scheduling.koordinator.sh/namespaces");
  }

  @Test
  void aPodNamingTheSystemGroupOutsideKubeSystemIsDenied() {
    final JsonNode response =
        review(pod("playground", "escape").quota("koordinator-system-quota").cpu("1m"));

    assertThat(response.get("allowed").asBoolean()).isFalse();
    assertThat(response.get("status").get("message").asText())
        .contains("quota group koordinator-system-quota admits only the pods of namespaces")
        .contains("not of namespace playground");
  }

  /**
   * Issue 39, point 1: the root and a parent group are charged for no pod of their own; a label
   * naming them is denied as such (the engine charges a pod that got in as if unlabelled).
   */
  @Test
  void aPodNamingTheRootOrAParentGroupIsDeniedNamingTheLabel() {
    final JsonNode root = review(pod("beta", "to-root").quota("koordinator-root-quota").cpu("1m"));
    final JsonNode parent = review(pod("beta", "to-parent").quota("research").cpu("1m"));

    assertThat(root.get("allowed").asBoolean()).isFalse();
    assertThat(root.get("status").get("message").asText())
        .contains("names the root group koordinator-root-quota");
    assertThat(parent.get("allowed").asBoolean()).isFalse();
    assertThat(parent.get("status").get("message").asText())
        .contains("names the parent group research");
  }

  @Test
  void aPodWhoseLabelIsChangedAfterCreationIsDenied() {
    final Reviews.PodJson admitted = pod("beta", "b-2").quota("team-b").cpu("1");
    final Reviews.PodJson moved = pod("beta", "b-2").quota("ops").cpu("1");

    final JsonNode relabel =
        plugin.post(PODS, Reviews.podReview("u", "UPDATE", moved, admitted)).json().get("response");
    final JsonNode unchanged =
        plugin
            .post(PODS, Reviews.podReview("u", "UPDATE", admitted, admitted))
            .json()
            .get("response");

    assertThat(relabel.get("allowed").asBoolean()).isFalse();
    assertThat(relabel.get("status").get("message").asText())
        .contains(
            "quota.scheduling.koordinator.sh/name of a pod cannot change (from team-b to ops)");
    assertThat(unchanged.get("allowed").asBoolean()).isTrue();
  }

  @Test
  void aPodOfANamespaceBoundToTheGroupIsJudgedOnQuotaAsBefore() {
    final JsonNode fits = review(pod("beta", "fits").quota("team-b").cpu("1"));
    final JsonNode tooBig = review(pod("beta", "big").quota("team-b").cpu("50"));

    assertThat(fits.get("allowed").asBoolean()).as(fits.toString()).isTrue();
    assertThat(tooBig.get("allowed").asBoolean()).isFalse();
    assertThat(tooBig.get("status").get("message").asText())
        .contains("does not fit quota group team-b");
  }
}
