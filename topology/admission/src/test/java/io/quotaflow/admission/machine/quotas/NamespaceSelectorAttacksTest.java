package io.quotaflow.admission.machine.quotas;

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

/**
 * Issue 39, point 4: a namespace selector keyed on a label tenants may set on their own namespaces
 * ({@code team: vision}) lets whoever may create or label a namespace join the group, charge pods
 * to it and see its pods. The quotas webhook refuses such a selector, even from a quota admin,
 * unless it is keyed on {@code admission.quota.selector.keys} (the namespace's name, an admin-only
 * prefix).
 */
class NamespaceSelectorAttacksTest {

  private static final String PATH = "/clusters/east/admission/quotas";
  private static final String SELECTOR = "quotaflow.io/namespace-selector";
  private static Plugin plugin;

  @BeforeAll
  static void start() {
    plugin = Plugin.start(TestClusters.state());
  }

  @AfterAll
  static void stop() {
    plugin.close();
  }

  private static Reviews.QuotaJson vision(String selector) {
    final Reviews.QuotaJson quota =
        quota("vision").namespace("quotas").parent("research").min("cpu", "1").max("cpu", "2");
    return selector == null ? quota : quota.annotation(SELECTOR, selector);
  }

  private static JsonNode answer(String review) {
    final Plugin.Reply reply = plugin.post(PATH, review);
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    return reply.json().get("response");
  }

  @Test
  void aSelectorOnALabelTenantsMaySetIsRefusedNamingTheKey() {
    final JsonNode response =
        answer(
            quotaReview("c", "CREATE", vision("{\"matchLabels\": {\"team\": \"vision\"}}"), null));

    assertThat(response.get("allowed").asBoolean()).isFalse();
    assertThat(response.get("status").get("code").asInt()).isEqualTo(403);
    assertThat(response.get("status").get("message").asText())
        .contains("keyed on label team")
        .contains("admission.quota.selector.keys")
        .contains("kubernetes.io/metadata.name");
  }

  @Test
  void aSelectorThatHoldsByALabelsAbsenceIsRefused() {
    final JsonNode response =
        answer(
            quotaReview(
                "a",
                "CREATE",
                vision(
                    "{\"matchExpressions\": [{\"key\": \"kubernetes.io/metadata.name\","
                        + " \"operator\": \"NotIn\", \"values\": [\"kube-system\"]}]}"),
                null));

    assertThat(response.get("allowed").asBoolean()).isFalse();
    assertThat(response.get("status").get("message").asText())
        .contains("selects every namespace that lacks a label");
  }

  @Test
  void anUpdateIntroducingSuchASelectorIsRefused() {
    final JsonNode response =
        answer(
            quotaReview(
                "u",
                "UPDATE",
                vision(
                    "{\"matchExpressions\": [{\"key\": \"env\", \"operator\": \"In\","
                        + " \"values\": [\"dev\"]}]}"),
                vision(null)));

    assertThat(response.get("allowed").asBoolean()).isFalse();
    assertThat(response.get("status").get("message").asText()).contains("keyed on label env");
  }

  @Test
  void aSelectorOnTheNamespacesNameOrAnAdminOnlyPrefixIsJudgedOnTheTree() {
    final JsonNode byName =
        answer(
            quotaReview(
                "n",
                "CREATE",
                vision(
                    "{\"matchExpressions\": [{\"key\": \"kubernetes.io/metadata.name\","
                        + " \"operator\": \"In\", \"values\": [\"vision-dev\"]}]}"),
                null));
    final JsonNode byAdminLabel =
        answer(
            quotaReview(
                "p",
                "CREATE",
                vision("{\"matchLabels\": {\"quota.admin.quotaflow.io/team\": \"vision\"}}"),
                null));

    assertThat(byName.toString()).doesNotContain("keyed on label");
    assertThat(byAdminLabel.toString()).doesNotContain("keyed on label");
    assertThat(byName.toString()).doesNotContain("lacks a label");
  }
}
