package io.quotaflow.admission.machine.quotas;

import static io.quotaflow.admission.http.Reviews.createQuota;
import static io.quotaflow.admission.http.Reviews.deleteQuota;
import static io.quotaflow.admission.http.Reviews.quota;
import static io.quotaflow.admission.http.Reviews.quotaReview;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.http.Plugin;
import io.quotaflow.admission.http.Reviews;
import io.quotaflow.admission.http.TestClusters;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class QuotaWebhookTest {

  private static final String PATH = "/clusters/east/admission/quotas";
  private static Plugin plugin;

  @BeforeAll
  static void start() {
    plugin = Plugin.start(TestClusters.state());
  }

  @AfterAll
  static void stop() {
    plugin.close();
  }

  private static JsonNode answer(String review) {
    final Plugin.Reply reply = plugin.post(PATH, review);
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    return reply.json().get("response");
  }

  @Test
  void aValidNewGroupIsAllowed() {
    final JsonNode response =
        answer(
            createQuota("u1", quota("team-c").parent("research").min("cpu", "1").max("cpu", "2")));

    assertThat(response.get("uid").asText()).isEqualTo("u1");
    assertThat(response.get("allowed").asBoolean()).isTrue();
  }

  @Test
  void everyBrokenRuleIsNamedWithItsNumbers() {
    // min above max, and the children's mins (4 + 2 + 5 cores) exceed research's 8.
    final JsonNode response =
        answer(
            createQuota("u2", quota("team-c").parent("research").min("cpu", "5").max("cpu", "3")));

    assertThat(response.get("allowed").asBoolean()).isFalse();
    assertThat(response.get("status").get("code").asInt()).isEqualTo(422);
    assertThat(response.get("status").get("message").asText())
        .contains("breaks 2 rules")
        .contains("min-not-above-max", "min 5 is above max 3")
        .contains("children-mins-fit-parent-min", "summing to 11000", "parent's min 8000");
  }

  @Test
  void aReservationAboveTheClusterTotalOrTheMaxIsRefusedNamingTheDimension() {
    // The east cluster has 10 cores and 40Gi; team-c's max is 2 cores.
    final JsonNode response =
        answer(
            createQuota(
                "u-r",
                quota("team-c")
                    .max("cpu", "2")
                    .annotation(
                        "quotaflow.io/reservation",
                        "{\"resource\": {\"cpu\": \"4\", \"memory\": \"64Gi\"}}")));

    assertThat(response.get("allowed").asBoolean()).isFalse();
    assertThat(response.get("status").get("message").asText())
        .contains("breaks 2 rules")
        .contains("reservation-within-max", "reservation 4 is above the group's max 2 in cpu")
        .contains("reservation-within-cluster", "above the cluster total 40Gi in memory");
  }

  @Test
  void anUnreadableReservationIsRefusedAndAReadableOneWithinBoundsAllowed() {
    final JsonNode unreadable =
        answer(
            createQuota(
                "u-u",
                quota("team-c").max("cpu", "2").annotation("quotaflow.io/reservation", "{nope")));
    final JsonNode fine =
        answer(
            createQuota(
                "u-f",
                quota("team-c")
                    .max("cpu", "2")
                    .annotation(
                        "quotaflow.io/reservation",
                        "{\"policy\": \"Guaranteed\", \"percentage\": {\"value\": 0.1}}")));

    assertThat(unreadable.get("allowed").asBoolean()).isFalse();
    assertThat(unreadable.get("status").get("message").asText())
        .contains("reservation-readable", "is not JSON");
    assertThat(fine.get("allowed").asBoolean()).isTrue();
  }

  @Test
  void aParentThatDoesNotExistIsRefused() {
    final JsonNode response =
        answer(createQuota("u3", quota("lost").parent("nowhere").min("cpu", "1")));

    assertThat(response.get("allowed").asBoolean()).isFalse();
    assertThat(response.get("status").get("message").asText()).contains("parent-exists", "nowhere");
  }

  @Test
  void anUpdateIsCheckedAgainstTheOtherGroups() {
    final JsonNode response =
        answer(
            quotaReview(
                "u4",
                "UPDATE",
                quota("team-b").parent("research").min("cpu", "5").max("cpu", "8"),
                quota("team-b").parent("research").min("cpu", "2").max("cpu", "8")));

    assertThat(response.get("allowed").asBoolean()).isFalse();
    assertThat(response.get("status").get("message").asText())
        .contains("children-mins-fit-parent-min");
  }

  @Test
  void aGroupWithChildrenOrPodsCannotBeDeleted() {
    final JsonNode parent = answer(deleteQuota("u5", quota("research").isParent().min("cpu", "8")));
    final JsonNode withPods = answer(deleteQuota("u6", quota("team-a").parent("research")));
    final JsonNode empty = answer(deleteQuota("u7", quota("ops").min("cpu", "1")));

    assertThat(parent.get("allowed").asBoolean()).isFalse();
    assertThat(parent.get("status").get("message").asText()).contains("delete-without-children");
    assertThat(withPods.get("allowed").asBoolean()).isFalse();
    assertThat(withPods.get("status").get("message").asText())
        .contains("delete-without-pods", "1 pods");
    assertThat(empty.get("allowed").asBoolean()).isTrue();
  }

  @Test
  void aNamespaceAlreadyOwnedByAnotherGroupIsRefused() {
    final JsonNode response =
        answer(
            createQuota(
                "u8",
                quota("ops-2")
                    .min("cpu", "0")
                    .annotation("quota.scheduling.koordinator.sh/namespaces", "[\"alpha\"]")));

    assertThat(response.get("allowed").asBoolean()).isFalse();
    assertThat(response.get("status").get("message").asText())
        .contains("namespace-in-one-group", "alpha", "team-a");
  }

  @Test
  void aReviewAboutAnotherKindIsABadRequest() {
    final Plugin.Reply reply =
        plugin.post(PATH, Reviews.createPod("u9", Reviews.pod("alpha", "p").cpu("1")));

    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.json().get("error").asText()).contains("ElasticQuota", "Pod");
  }
}
