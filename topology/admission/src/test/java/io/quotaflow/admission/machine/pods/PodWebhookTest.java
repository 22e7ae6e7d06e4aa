package io.quotaflow.admission.machine.pods;

import static io.quotaflow.admission.http.Reviews.createPod;
import static io.quotaflow.admission.http.Reviews.pod;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.http.Plugin;
import io.quotaflow.admission.http.PluginConfig;
import io.quotaflow.admission.http.Reviews;
import io.quotaflow.admission.http.TestClusters;
import io.quotaflow.admission.machine.AdmissionMode;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.Quantities;
import io.quotaflow.tree.GroupStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PodWebhookTest {

  private static final String PATH = "/clusters/east/admission/pods";

  private final SnapshotClusterState state = TestClusters.state();
  private Plugin plugin;

  @AfterEach
  void stop() {
    if (plugin != null) {
      plugin.close();
    }
  }

  private Plugin plugin() {
    if (plugin == null) {
      plugin = Plugin.start(state);
    }
    return plugin;
  }

  private static String milli(long value) {
    return value + "m";
  }

  @Test
  void admitsAPodThatFitsItsGroupAndEchoesTheReviewUid() {
    final long room = TestClusters.room(state, "team-a");
    assertThat(room).isPositive();

    final Plugin.Reply reply =
        plugin().post(PATH, createPod("uid-1", pod("alpha", "a-2").cpu(milli(room))));

    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    final JsonNode response = reply.json().get("response");
    assertThat(reply.json().get("apiVersion").asText()).isEqualTo("admission.k8s.io/v1");
    assertThat(reply.json().get("kind").asText()).isEqualTo("AdmissionReview");
    assertThat(response.get("uid").asText()).isEqualTo("uid-1");
    assertThat(response.get("allowed").asBoolean()).isTrue();
  }

  @Test
  void deniesAPodThatDoesNotFitWithCode403AndEveryNumber() {
    final GroupStatus teamA = TestClusters.status(state, "team-a");
    final long used = teamA.used().get("cpu");
    final long request = TestClusters.room(state, "team-a") + 1;
    // The bound named is the runtime team-a would have with the pod counted.
    final long runtime = TestClusters.runtimeWithPod(state, "team-a", request);
    assertThat(runtime).isGreaterThan(teamA.runtime().get("cpu"));

    final JsonNode response =
        plugin()
            .post(PATH, createPod("uid-2", pod("alpha", "big").cpu(milli(request))))
            .json()
            .get("response");

    assertThat(response.get("allowed").asBoolean()).isFalse();
    assertThat(response.get("status").get("code").asInt()).isEqualTo(403);
    assertThat(response.get("status").get("message").asText())
        .contains("team-a", "cpu")
        .contains("runtime " + Quantities.format("cpu", runtime))
        .contains("used " + Quantities.format("cpu", used))
        .contains("in-flight 0")
        .contains("request " + Quantities.format("cpu", request));
  }

  @Test
  void anAdmittedPodHoldsItsRequestUntilItIsSeen() {
    final long room = TestClusters.room(state, "team-a");
    final long half = room / 2 + 1;

    final JsonNode first =
        plugin()
            .post(PATH, createPod("u1", pod("alpha", "first").cpu(milli(half))))
            .json()
            .get("response");
    final JsonNode second =
        plugin()
            .post(PATH, createPod("u2", pod("alpha", "second").cpu(milli(half))))
            .json()
            .get("response");

    assertThat(first.get("allowed").asBoolean()).isTrue();
    assertThat(second.get("allowed").asBoolean()).isFalse();
    assertThat(second.get("status").get("message").asText()).contains("in-flight " + half);
    assertThat(plugin().server().holds().of("east").holds(new PodRef("alpha", "first"))).isTrue();
  }

  @Test
  void aDryRunIsCheckedButHoldsNothing() {
    final long room = TestClusters.room(state, "team-a");

    final JsonNode dry =
        plugin()
            .post(PATH, Reviews.dryRunCreatePod("u1", pod("alpha", "p").cpu(milli(room))))
            .json()
            .get("response");
    final JsonNode real =
        plugin()
            .post(PATH, createPod("u2", pod("alpha", "q").cpu(milli(room))))
            .json()
            .get("response");

    assertThat(dry.get("allowed").asBoolean()).isTrue();
    assertThat(real.get("allowed").asBoolean()).isTrue();
  }

  @Test
  void anAncestorWithoutRoomDeniesThePodAndIsNamed() {
    // A 5-core pod admitted into team-a is in flight at research too, but only team-b's request
    // grows in team-b's what-if: team-b asks 3001m, research then asks 4000m + 3001m, below its
    // min of 8 cores, and gets exactly that. team-b has room for the pod; research, which uses
    // 1 core and holds 5 in flight, does not.
    final JsonNode first =
        plugin()
            .post(PATH, createPod("u1", pod("alpha", "a-big").cpu(milli(5_000))))
            .json()
            .get("response");
    final JsonNode response =
        plugin()
            .post(PATH, createPod("u2", pod("beta", "b-1").quota("team-b").cpu(milli(3_001))))
            .json()
            .get("response");

    assertThat(first.get("allowed").asBoolean()).isTrue();
    assertThat(response.get("allowed").asBoolean()).isFalse();
    assertThat(response.get("status").get("message").asText())
        .contains("group research cpu: used 1 + in-flight 5 + request 3001m > runtime 7001m")
        .doesNotContain("group team-b cpu");
  }

  @Test
  void podsOfExcludedNamespacesAndOfTheSystemGroupAreAlwaysAdmitted() {
    final String huge = "100";

    final JsonNode excluded =
        plugin()
            .post(PATH, createPod("u1", pod("kube-system", "dns").cpu(huge)))
            .json()
            .get("response");
    final JsonNode system =
        plugin()
            .post(
                PATH,
                createPod(
                    "u2", pod("quotaflow", "agent").quota("koordinator-system-quota").cpu(huge)))
            .json()
            .get("response");

    assertThat(excluded.get("allowed").asBoolean()).isTrue();
    assertThat(system.get("allowed").asBoolean()).isTrue();
  }

  @Test
  void onlyCreationIsChecked() {
    final Reviews.PodJson huge = pod("alpha", "a-1").cpu("100");

    final JsonNode update =
        plugin().post(PATH, Reviews.podReview("u1", "UPDATE", huge, huge)).json().get("response");
    final JsonNode delete =
        plugin().post(PATH, Reviews.podReview("u2", "DELETE", null, huge)).json().get("response");

    assertThat(update.get("allowed").asBoolean()).isTrue();
    assertThat(delete.get("allowed").asBoolean()).isTrue();
  }

  @Test
  void warnModeAdmitsWithAWarningNamingTheNumbers() {
    plugin = Plugin.start(PluginConfig.plainHttpOnLoopback(0).withMode(AdmissionMode.WARN), state);
    final long room = TestClusters.room(state, "team-a");

    final JsonNode response =
        plugin
            .post(PATH, createPod("u", pod("alpha", "big").cpu(milli(room + 1))))
            .json()
            .get("response");

    assertThat(response.get("allowed").asBoolean()).isTrue();
    assertThat(response.get("warnings").get(0).asText()).contains("team-a", "cpu", "runtime");
  }

  @Test
  void offModeAdmitsWithoutLookingEvenForAnUnknownCluster() {
    plugin = Plugin.start(PluginConfig.plainHttpOnLoopback(0).withMode(AdmissionMode.OFF), state);

    final JsonNode response =
        plugin
            .post(
                "/clusters/nowhere/admission/pods", createPod("u", pod("alpha", "big").cpu("100")))
            .json()
            .get("response");

    assertThat(response.get("allowed").asBoolean()).isTrue();
  }

  @Test
  void aPodResolvedByTheNamespacesAnnotationIsChargedToThatGroup() {
    final long teamARoom = TestClusters.room(state, "team-a");
    final long opsRoom = TestClusters.room(state, "ops");
    assertThat(teamARoom).isGreaterThan(opsRoom);

    // Namespace alpha is listed by team-a; the pod fits team-a but would not fit ops.
    final JsonNode response =
        plugin()
            .post(PATH, createPod("u", pod("alpha", "x").cpu(milli(teamARoom))))
            .json()
            .get("response");

    assertThat(response.get("allowed").asBoolean()).isTrue();
  }
}
