package io.quotaflow.admission.http;

import static io.quotaflow.admission.http.Reviews.createPod;
import static io.quotaflow.admission.http.Reviews.pod;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.state.ClusterStateReader;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.admission.state.Ownership;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RobustnessTest {

  private static final String PODS = "/clusters/east/admission/pods";
  private final SnapshotClusterState state = TestClusters.state();
  private Plugin plugin = Plugin.start(state);

  @AfterEach
  void stop() {
    plugin.close();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/clusters/east/admission/pods",
        "/clusters/east/admission/quotas",
        "/clusters/east/scheduler/filter"
      })
  void malformedJsonIsA400WithAShortMessage(String path) {
    final Plugin.Reply reply = plugin.post(path, "{\"apiVersion\": ");

    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.json().get("error").asText()).contains("not valid JSON").hasSizeLessThan(300);
    assertThat(reply.body()).doesNotContain("at io.", "Exception");
  }

  @Test
  void wrongKindsAndMissingFieldsAre400s() {
    final String notAReview = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}";
    final String noRequest =
        "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\"}";
    final String noUid = createPod("", pod("alpha", "p").cpu("1"));
    final String noObject = Reviews.podReview("u", "CREATE", null, null);
    final String v1beta1 =
        createPod("u", pod("alpha", "p").cpu("1"))
            .replace("admission.k8s.io/v1", "admission.k8s.io/v1beta1");

    assertThat(plugin.post(PODS, notAReview).json().get("error").asText()).contains("apiVersion");
    assertThat(plugin.post(PODS, noRequest).json().get("error").asText()).contains("request");
    assertThat(plugin.post(PODS, noUid).json().get("error").asText()).contains("uid");
    assertThat(plugin.post(PODS, noObject).json().get("error").asText()).contains("object");
    assertThat(plugin.post(PODS, v1beta1).status()).isEqualTo(400);
    assertThat(plugin.post(PODS, "[]").status()).isEqualTo(400);
    assertThat(plugin.post(PODS, "").status()).isEqualTo(400);
    assertThat(plugin.post("/clusters/east/scheduler/filter", "{\"NodeNames\":[]}").status())
        .isEqualTo(400);
  }

  @Test
  void aBodyOverTheReviewLimitIsA413() {
    // The pod webhook reads reviews up to the API server's largest (issue 40.14), not 1 MiB.
    final byte[] big = new byte[PluginConfig.MAX_REVIEW_BODY_BYTES + 1];
    Arrays.fill(big, (byte) ' ');

    final Plugin.Reply reply = plugin.post(PODS, big);

    assertThat(reply.status()).isEqualTo(413);
    assertThat(plugin.get("/healthz").status()).isEqualTo(200);
  }

  @Test
  void aWrongMethodIsA405NamingTheAllowedOne() {
    final Plugin.Reply get = plugin.get(PODS);
    final Plugin.Reply post = plugin.post("/api/v1/clusters/east/quotas", "{}");

    assertThat(get.status()).isEqualTo(405);
    assertThat(get.headers().firstValue("Allow")).contains("POST");
    assertThat(post.status()).isEqualTo(405);
    assertThat(post.headers().firstValue("Allow")).contains("GET");
  }

  @Test
  void anUnknownClusterIsA404WithJsonAndAnUnknownPathToo() {
    final Plugin.Reply cluster =
        plugin.post("/clusters/north/admission/pods", createPod("u", pod("a", "p").cpu("1")));
    final Plugin.Reply path = plugin.get("/nothing/here");

    assertThat(cluster.status()).isEqualTo(404);
    assertThat(cluster.json().get("error").asText()).contains("unknown cluster north");
    assertThat(path.status()).isEqualTo(404);
    assertThat(path.json().get("error").asText()).contains("no such endpoint");
  }

  @ParameterizedTest
  @ValueSource(strings = {"/api/v1/clusters//quotas", "/api/v1/clusters/east/%2e%2e/quotas"})
  void aPathJettyRefusesIsA400InTheApisJsonShape(String path) {
    final Plugin.Reply reply = plugin.get(path);

    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
    assertThat(reply.json().get("status").asInt()).isEqualTo(400);
    assertThat(reply.json().get("error").asText()).isNotBlank().doesNotContain("<");
  }

  @Test
  void duringARebalanceWithoutALastStateFailOpenAllowsWithAWarning() {
    restartedWithoutState(Plugin::start);

    final JsonNode response =
        plugin.post(PODS, createPod("u", pod("alpha", "p").cpu("100"))).json().get("response");

    assertThat(response.get("allowed").asBoolean()).isTrue();
    assertThat(response.get("warnings").get(0).asText())
        .contains("could not check", "being restored", "fail-open");
  }

  @Test
  void duringARebalanceWithoutALastStateFailClosedDeniesWithAClearMessage() {
    restartedWithoutState(Plugin::startFailClosed);

    final JsonNode response =
        plugin.post(PODS, createPod("u", pod("alpha", "p").cpu("1"))).json().get("response");
    final JsonNode filter =
        plugin
            .post(
                "/clusters/east/scheduler/filter",
                Reviews.filterArgsWithNames(pod("alpha", "p").cpu("1"), "n1"))
            .json();

    assertThat(response.get("allowed").asBoolean()).isFalse();
    assertThat(response.get("status").get("code").asInt()).isEqualTo(503);
    assertThat(response.get("status").get("message").asText())
        .contains("could not check", "being restored", "fail-closed");
    assertThat(filter.get("FailedNodes").get("n1").asText()).contains("fail-closed");
  }

  @Test
  void anUnexpectedErrorIsLoggedWithACorrelationIdAndAnsweredByThePolicy() {
    plugin.close();
    plugin = Plugin.start(PluginConfig.plainHttpOnLoopback(0), new BrokenState());

    final Plugin.Reply reply = plugin.post(PODS, createPod("u", pod("alpha", "p").cpu("1")));

    assertThat(reply.status()).isEqualTo(200);
    final JsonNode response = reply.json().get("response");
    assertThat(response.get("allowed").asBoolean()).isTrue();
    assertThat(response.get("warnings").get(0).asText()).contains("correlation id");
    assertThat(reply.body()).doesNotContain("IllegalStateException", "at io.");
  }

  /**
   * A query that fails in an unforeseen way is the server's fault, not the request's: 503 with the
   * correlation id, as when the state cannot be read (it was 400 "the request could not be read").
   */
  @Test
  void anUnexpectedErrorInAQueryIsA503WithTheCorrelationIdNotA400() {
    plugin.close();
    plugin = Plugin.start(PluginConfig.plainHttpOnLoopback(0), new BrokenState());

    final Plugin.Reply reply = plugin.get("/api/v1/clusters/east/quotas/team-a");

    assertThat(reply.status()).isEqualTo(503);
    assertThat(reply.json().get("error").asText())
        .contains("internal error (correlation id")
        .doesNotContain("could not be read");
    assertThat(reply.body()).doesNotContain("IllegalStateException", "at io.");
  }

  @Test
  void readinessFollowsTheStateAndMetricsCountRequests() {
    plugin.post(PODS, createPod("u", pod("alpha", "p").cpu("1")));
    assertThat(plugin.get("/readyz").status()).isEqualTo(200);

    state.notReady(Optional.of("streams are REBALANCING"));
    final Plugin.Reply notReady = plugin.get("/readyz");
    final Plugin.Reply metrics = plugin.get("/metrics");

    assertThat(notReady.status()).isEqualTo(503);
    assertThat(notReady.body()).contains("REBALANCING");
    assertThat(plugin.get("/healthz").status()).isEqualTo(200);
    assertThat(metrics.status()).isEqualTo(200);
    assertThat(metrics.body())
        .contains("quotaflow_admission_requests_seconds_count{endpoint=\"admission-pods\"")
        .contains("outcome=\"allowed\"");
  }

  /** A state whose cluster view fails in an unforeseen way. */
  private static final class BrokenState implements ClusterStateReader {
    @Override
    public boolean alive() {
      return true;
    }

    @Override
    public Optional<String> notReadyReason() {
      return Optional.empty();
    }

    @Override
    public Ownership owner(String cluster) {
      return Ownership.local();
    }

    @Override
    public List<String> localClusters() {
      return List.of("east");
    }

    @Override
    public Optional<ClusterView> cluster(String cluster) {
      return Optional.of(
          new ClusterView() {
            @Override
            public Optional<GroupStatus> group(String name) {
              throw new IllegalStateException("store iterator closed");
            }

            @Override
            public List<GroupStatus> groups() {
              throw new IllegalStateException("store iterator closed");
            }

            @Override
            public List<QuotaGroup> quotas() {
              return List.of();
            }

            @Override
            public List<PodAssignment> podsOf(String group) {
              return List.of();
            }
          });
    }
  }

  /** The plugin started again while the cluster's task is being restored: it has no state. */
  private void restartedWithoutState(Function<ClusterStateReader, Plugin> start) {
    plugin.close();
    state.unavailable("east", "the cluster's task is being restored");
    plugin = start.apply(state);
  }
}
