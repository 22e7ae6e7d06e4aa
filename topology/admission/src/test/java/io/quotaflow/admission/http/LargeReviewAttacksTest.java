package io.quotaflow.admission.http;

import static io.quotaflow.admission.http.Reviews.pod;
import static io.quotaflow.admission.http.Reviews.quota;
import static io.quotaflow.admission.http.Reviews.quotaReview;
import static io.quotaflow.admission.http.Reviews.resizePod;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 40, point 14, tried as a tenant would: an object made large on purpose (a 1.4 MB
 * annotation, which the API server stores: its limit is about 1.5 MiB) used to make the review
 * larger than the plugin's 1 MiB body limit, and the 413 let the pod in unchecked (the pod
 * webhook's {@code failurePolicy: Ignore}, the extender's {@code ignorable: true}). The machine
 * doors now read reviews up to {@link PluginConfig#MAX_REVIEW_BODY_BYTES}, two such objects and
 * their envelope, and judge them; above that a review is still a 413, counted per endpoint;
 * people's doors keep {@link PluginConfig#MAX_BODY_BYTES}. (team-b, namespace beta, fits a pod of 1
 * CPU and not one of 50: see TestClusters.)
 */
class LargeReviewAttacksTest {

  private static final String PODS = "/clusters/east/admission/pods";
  private static final String QUOTAS = "/clusters/east/admission/quotas";
  private static final String FILTER = "/clusters/east/scheduler/filter";

  /** An annotation value of 1.4 MB: an object the API server still stores. */
  private static final String PADDING = "x".repeat(1_400_000);

  private static Plugin plugin;

  @BeforeAll
  static void start() {
    plugin = Plugin.start(TestClusters.state());
  }

  @AfterAll
  static void stop() {
    plugin.close();
  }

  @Test
  void aThreeMegabyteResizeBeyondItsGroupsRuntimeIsDeniedNotA413() {
    final String review =
        resizePod(
            "big",
            pod("beta", "worker").quota("team-b").cpu("50").annotation("example.com/pad", PADDING),
            pod("beta", "worker").quota("team-b").cpu("1").annotation("example.com/pad", PADDING));
    assertThat(review.length()).isGreaterThan(2_800_000);

    final Plugin.Reply reply = plugin.post(PODS, review);

    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    final JsonNode response = reply.json().get("response");
    assertThat(response.get("allowed").asBoolean()).as(response.toString()).isFalse();
    assertThat(response.get("status").get("message").asText())
        .contains("does not fit quota group team-b");
  }

  @Test
  void aThreeMegabyteRelabelIsDeniedNotA413() {
    final String review =
        Reviews.podReview(
            "relabel",
            "UPDATE",
            pod("beta", "worker").quota("team-a").cpu("1").annotation("example.com/pad", PADDING),
            pod("beta", "worker").quota("team-b").cpu("1").annotation("example.com/pad", PADDING));

    final Plugin.Reply reply = plugin.post(PODS, review);

    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.json().get("response").get("allowed").asBoolean()).isFalse();
  }

  @Test
  void aThreeMegabyteQuotaUpdateIsCheckedNotA413() {
    final JsonNode response =
        plugin
            .post(
                QUOTAS,
                quotaReview(
                    "q",
                    "UPDATE",
                    quota("team-b")
                        .parent("research")
                        .min("cpu", "5")
                        .max("cpu", "8")
                        .annotation("example.com/pad", PADDING),
                    quota("team-b")
                        .parent("research")
                        .min("cpu", "2")
                        .max("cpu", "8")
                        .annotation("example.com/pad", PADDING)))
            .json()
            .get("response");

    assertThat(response.get("allowed").asBoolean()).as(response.toString()).isFalse();
    assertThat(response.get("status").get("message").asText())
        .contains("children-mins-fit-parent-min");
  }

  @Test
  void theFilterJudgesALargePodNotA413() {
    final Plugin.Reply reply =
        plugin.post(
            FILTER,
            Reviews.filterArgsWithNames(
                pod("beta", "huge")
                    .quota("team-b")
                    .cpu("50")
                    .annotation("example.com/pad", PADDING),
                "n1"));

    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.body()).contains("does not fit quota group team-b");
  }

  @Test
  void aReviewAboveTheLimitIsA413NamingItAndCountedForItsEndpoint() {
    final byte[] big = new byte[PluginConfig.MAX_REVIEW_BODY_BYTES + 1];
    Arrays.fill(big, (byte) ' ');

    final Plugin.Reply reply = plugin.post(QUOTAS, big);

    assertThat(reply.status()).isEqualTo(413);
    assertThat(reply.json().get("error").asText())
        .contains("larger than " + PluginConfig.MAX_REVIEW_BODY_BYTES + " bytes");
    assertThat(plugin.get("/metrics").body())
        .contains(
            "quotaflow_admission_requests_seconds_count{endpoint=\"admission-quotas\","
                + "outcome=\"too-large\",status=\"413\"}");
    assertThat(plugin.get("/healthz").status()).isEqualTo(200);
  }

  @Test
  void peoplesDoorsStillRefuseTwoMegabytes() {
    final byte[] json =
        ("{\"token\":\"" + "x".repeat(2_000_000) + "\"}").getBytes(StandardCharsets.UTF_8);

    assertThat(plugin.post("/api/v1/session", json).status()).isEqualTo(413);
    assertThat(plugin.post("/api/v1/clusters/east/what-if", json).status()).isEqualTo(413);
    assertThat(plugin.post("/api/v1/clusters/east/quotas", json).status()).isEqualTo(413);
  }
}
