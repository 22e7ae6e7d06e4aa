package io.quotaflow.admission.machine.quotas;

import static io.quotaflow.admission.http.Reviews.quota;
import static io.quotaflow.admission.http.Reviews.quotaReview;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.http.Plugin;
import io.quotaflow.admission.http.Reviews;
import io.quotaflow.admission.http.TestClusters;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 24, points 2 and 3, tried as a tenant would: a tenant allowed by RBAC to edit its own
 * ElasticQuota raises its weight, drops its borrowing limit, turns on force updates or re-parents
 * itself; anyone allowed to create an ElasticQuota shadows a team's group or defines a special
 * group. Each is refused with the field or the rule named; the same change from a quota admin is
 * judged as before.
 */
class QuotaWebhookAttacksTest {

  private static final String PATH = "/clusters/east/admission/quotas";
  private static final String TENANT = "system:serviceaccount:team-b:deployer";
  private static final List<String> TENANT_GROUPS =
      List.of("system:serviceaccounts", "system:authenticated");
  private static Plugin plugin;

  @BeforeAll
  static void start() {
    plugin = Plugin.start(TestClusters.state());
  }

  @AfterAll
  static void stop() {
    plugin.close();
  }

  private static Reviews.QuotaJson teamB() {
    return quota("team-b")
        .namespace("beta")
        .parent("research")
        .min("cpu", "2")
        .max("cpu", "8")
        .label("quota.scheduling.koordinator.sh/allow-lent-resource", "false");
  }

  private static JsonNode answer(String review) {
    final Plugin.Reply reply = plugin.post(PATH, review);
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    return reply.json().get("response");
  }

  private static JsonNode asTenant(
      String operation, Reviews.QuotaJson object, Reviews.QuotaJson old) {
    return answer(quotaReview("t", operation, object, old, TENANT, TENANT_GROUPS));
  }

  @Test
  void aTenantRaisingItsOwnSharedWeightIsRefusedNamingTheField() {
    final JsonNode response =
        asTenant(
            "UPDATE",
            teamB()
                .annotation("quota.scheduling.koordinator.sh/shared-weight", "{\"cpu\":\"100\"}"),
            teamB());

    assertThat(response.get("allowed").asBoolean()).isFalse();
    assertThat(response.get("status").get("code").asInt()).isEqualTo(403);
    assertThat(response.get("status").get("message").asText())
        .contains("user " + TENANT)
        .contains("may not change annotation quota.scheduling.koordinator.sh/shared-weight")
        .contains("admission.quota.admins: system:masters");
  }

  @Test
  void aTenantTurningOnForceUpdateOrReparentingItselfIsRefused() {
    final JsonNode forced =
        asTenant(
            "UPDATE",
            teamB().label("quota.scheduling.koordinator.sh/allow-force-update", "true"),
            teamB());
    final JsonNode moved = asTenant("UPDATE", teamB().parent("koordinator-root-quota"), teamB());

    assertThat(forced.get("allowed").asBoolean()).isFalse();
    assertThat(forced.get("status").get("message").asText())
        .contains("quota.scheduling.koordinator.sh/allow-force-update");
    assertThat(moved.get("allowed").asBoolean()).isFalse();
    assertThat(moved.get("status").get("message").asText())
        .contains("label quota.scheduling.koordinator.sh/parent");
  }

  @Test
  void aTenantDroppingItsBorrowingLimitOrRaisingItsMaxIsRefused() {
    final JsonNode unlimited =
        asTenant(
            "UPDATE",
            teamB(),
            teamB().annotation("quotaflow.io/borrowing-limit", "{\"cpu\":\"1\"}"));
    final JsonNode bigger = asTenant("UPDATE", teamB().max("cpu", "10"), teamB());

    assertThat(unlimited.get("allowed").asBoolean()).isFalse();
    assertThat(unlimited.get("status").get("message").asText())
        .contains("annotation quotaflow.io/borrowing-limit");
    assertThat(bigger.get("allowed").asBoolean()).isFalse();
    assertThat(bigger.get("status").get("message").asText()).contains("spec.max");
  }

  @Test
  void aForgedReviewWithoutUserInformationIsRefused() {
    final JsonNode response =
        answer(quotaReview("t", "CREATE", quota("sneaky"), null, null, List.of()));

    assertThat(response.get("allowed").asBoolean()).isFalse();
    assertThat(response.get("status").get("message").asText())
        .contains("a request without user information may not create ElasticQuota sneaky");
  }

  @Test
  void theSameChangeFromAQuotaAdminIsJudgedOnTheTree() {
    final JsonNode response = answer(quotaReview("a", "UPDATE", teamB().max("cpu", "7"), teamB()));

    assertThat(response.get("allowed").asBoolean()).as(response.toString()).isTrue();
  }

  @Test
  void anElasticQuotaShadowingAGroupOfAnotherNamespaceIsRefused() {
    final JsonNode response =
        answer(
            quotaReview(
                "s", "CREATE", quota("team-b").namespace("attacker").min("cpu", "1"), null));

    assertThat(response.get("allowed").asBoolean()).isFalse();
    assertThat(response.get("status").get("code").asInt()).isEqualTo(409);
    assertThat(response.get("status").get("message").asText())
        .contains("an ElasticQuota named team-b already exists in namespace beta");
  }

  @Test
  void aSpecialGroupOutsideTheSpecialNamespacesIsRefusedEvenFromAnAdmin() {
    final JsonNode outside =
        answer(
            quotaReview(
                "d",
                "CREATE",
                quota("koordinator-default-quota").namespace("playground").max("cpu", "1"),
                null));
    final JsonNode inside =
        answer(
            quotaReview(
                "k",
                "CREATE",
                quota("koordinator-default-quota").namespace("kube-system").max("cpu", "1"),
                null));

    assertThat(outside.get("allowed").asBoolean()).isFalse();
    assertThat(outside.get("status").get("message").asText())
        .contains("special group koordinator-default-quota may only be")
        .contains("not of namespace playground");
    assertThat(inside.toString()).doesNotContain("may only be an ElasticQuota of namespace");
  }
}
