package io.quotaflow.admission.http;

import static io.quotaflow.admission.http.Reviews.createPod;
import static io.quotaflow.admission.http.Reviews.pod;
import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.parentQuota;
import static io.quotaflow.tree.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.quotaflow.admission.machine.AdmissionMode;
import io.quotaflow.admission.machine.denials.DeniedPods;
import io.quotaflow.admission.machine.pods.PodWebhook;
import io.quotaflow.admission.machine.scheduler.PendingPods;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.tree.Fixtures;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * docs/admission.md, Reasons: the pod webhook and the scheduler filter say why in the reason codes
 * of docs/semantics.md section 19, where scripts read them, and count denials and waiting pods by
 * reason.
 */
class ReasonCodesTest {

  private static final String WEBHOOK = "/clusters/east/admission/pods";
  private static final String FILTER = "/clusters/east/scheduler/filter";

  /**
   * 100 cores. dept (min 10, max 20) holds team (namespace alpha, min 5, max 10): a pod of 25 cores
   * meets team's max, and dept's runtime of 10 (its request, below its max). capped (namespace
   * beta, min 10, max 100) may borrow 20 more than its min: its runtime stops at 30.
   */
  private static SnapshotClusterState state() {
    return TestClusters.state(
        Fixtures.cluster()
            .total(cpu(100_000))
            .group(parentQuota("dept").min(cpu(10_000)).max(cpu(20_000)))
            .group(
                quota("team")
                    .parent("dept")
                    .min(cpu(5_000))
                    .max(cpu(10_000))
                    .namespaces(List.of("alpha")))
            .group(
                quota("capped")
                    .min(cpu(10_000))
                    .max(cpu(100_000))
                    .borrowingLimit(cpu(20_000))
                    .namespaces(List.of("beta"))));
  }

  private Plugin plugin;

  @AfterEach
  void stop() {
    if (plugin != null) {
      plugin.close();
    }
  }

  private JsonNode review(String uid, Reviews.PodJson pod) {
    return plugin.post(WEBHOOK, createPod(uid, pod)).json().get("response");
  }

  private JsonNode filter(Reviews.PodJson pod) {
    return plugin.post(FILTER, Reviews.filterArgsWithNames(pod, "n1", "n2")).json();
  }

  private double denied(String reason, String occasion) {
    final Counter counter =
        plugin
            .server()
            .registry()
            .find(DeniedPods.DENIED)
            .tags("reason", reason, "occasion", occasion)
            .counter();
    return counter == null ? 0 : counter.count();
  }

  private List<String> pendingSeries() {
    final List<String> series = new ArrayList<>();
    for (final Gauge gauge : plugin.server().registry().find(PendingPods.PENDING).gauges()) {
      series.add(
          gauge.getId().getTag("name")
              + "/"
              + gauge.getId().getTag("reason")
              + "="
              + (long) gauge.value());
    }
    return series;
  }

  @Test
  void aDenialListsEveryFailingChecksCodeAsAStatusCauseAndTheFirstAsAnAuditAnnotation() {
    plugin = Plugin.start(state());

    final JsonNode response = review("u1", pod("alpha", "big").cpu("25"));

    assertThat(response.get("allowed").asBoolean()).isFalse();
    final JsonNode status = response.get("status");
    // status.reason stays Kubernetes' own StatusReason: clients branch on it.
    assertThat(status.get("reason").asText()).isEqualTo("Forbidden");
    assertThat(status.get("message").asText())
        .startsWith(
            "quotaflow: pod alpha/big does not fit quota group team: exceeds-max: group team")
        .contains(
            "; exceeds-runtime: group dept cpu: used 0 + in-flight 0 + request 25 > runtime 10");
    final JsonNode causes = status.get("details").get("causes");
    assertThat(causes)
        .extracting(cause -> cause.get("reason").asText())
        .containsExactly("exceeds-max", "exceeds-runtime");
    assertThat(causes.get(0).get("message").asText())
        .isEqualTo("exceeds-max: group team cpu: used 0 + in-flight 0 + request 25 > runtime 10");
    assertThat(response.get("auditAnnotations").get(PodWebhook.REASON_ANNOTATION).asText())
        .isEqualTo("exceeds-max");
  }

  @Test
  void aGroupAtItsBorrowingLimitIsDeniedForIt() {
    plugin = Plugin.start(state());

    final JsonNode response = review("u1", pod("beta", "big").cpu("31"));

    assertThat(response.get("status").get("details").get("causes"))
        .extracting(cause -> cause.get("reason").asText())
        .containsExactly("borrowing-limit");
    assertThat(response.get("status").get("message").asText())
        .contains(
            "borrowing-limit: group capped cpu: used 0 + in-flight 0 + request 31 > runtime 30");
    assertThat(review("u2", pod("beta", "fits").cpu("30")).get("allowed").asBoolean()).isTrue();
  }

  @Test
  void webhookDenialsAreCountedByReasonAndNotWarnings() {
    plugin = Plugin.start(state());

    review("u1", pod("alpha", "big").cpu("25"));
    review("u2", pod("alpha", "bigger").cpu("26"));
    review("u3", pod("beta", "big").cpu("31"));
    review("u4", pod("alpha", "small").cpu("1"));

    assertThat(denied("exceeds-max", "webhook")).isEqualTo(2);
    assertThat(denied("borrowing-limit", "webhook")).isEqualTo(1);
    assertThat(denied("exceeds-max", "filter")).isZero();
    assertThat(plugin.server().registry().scrape())
        .contains("quotaflow_pods_denied_total{occasion=\"webhook\",reason=\"exceeds-max\"} 2.0");
  }

  @Test
  void aWarningCarriesTheCodeInItsAuditAnnotationAndIsNotCountedAsADenial() {
    plugin =
        Plugin.start(PluginConfig.plainHttpOnLoopback(0).withMode(AdmissionMode.WARN), state());

    final JsonNode response = review("u1", pod("beta", "big").cpu("31"));

    assertThat(response.get("allowed").asBoolean()).isTrue();
    assertThat(response.get("warnings").get(0).asText())
        .contains(": borrowing-limit: group capped");
    assertThat(response.get("auditAnnotations").get(PodWebhook.REASON_ANNOTATION).asText())
        .isEqualTo("borrowing-limit");
    assertThat(denied("borrowing-limit", "webhook")).isZero();
  }

  @Test
  void everyFailedNodeOfAPodOverItsQuotaStartsWithTheCode() {
    plugin = Plugin.start(state());

    final JsonNode result = filter(pod("alpha", "big").cpu("25"));

    final JsonNode failed = result.get("FailedAndUnresolvableNodes");
    assertThat(failed.fieldNames()).toIterable().containsExactly("n1", "n2");
    assertThat(failed)
        .allSatisfy(
            reason ->
                assertThat(reason.asText())
                    .startsWith("quotaflow: exceeds-max: pod does not fit quota group team: ")
                    .contains("exceeds-runtime: group dept cpu"));
  }

  @Test
  void theFilterCountsEachRefusalAndGaugesEachWaitingPodOnceUntilItPasses() {
    plugin = Plugin.start(state());

    filter(pod("alpha", "big").cpu("25"));
    filter(pod("alpha", "big").cpu("25"));
    filter(pod("beta", "big").cpu("31"));

    assertThat(denied("exceeds-max", "filter")).isEqualTo(2);
    assertThat(denied("borrowing-limit", "filter")).isEqualTo(1);
    assertThat(pendingSeries())
        .containsExactlyInAnyOrder("team/exceeds-max=1", "capped/borrowing-limit=1");
    assertThat(plugin.server().registry().scrape())
        .contains(
            "quotaflow_pods_pending{cluster=\"east\",name=\"team\",reason=\"exceeds-max\"} 1.0");

    // The same pod, shrunk, passes: it no longer waits, and its series goes.
    final JsonNode passed = filter(pod("alpha", "big").cpu("1"));

    assertThat(passed.get("NodeNames")).hasSize(2);
    assertThat(pendingSeries()).containsExactly("capped/borrowing-limit=1");
  }
}
