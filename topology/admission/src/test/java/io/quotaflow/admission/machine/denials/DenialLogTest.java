package io.quotaflow.admission.machine.denials;

import static io.quotaflow.admission.http.Reviews.createPod;
import static io.quotaflow.admission.http.Reviews.dryRunCreatePod;
import static io.quotaflow.admission.http.Reviews.pod;
import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.admission.http.AdmissionServer;
import io.quotaflow.admission.http.Plugin;
import io.quotaflow.admission.http.PluginConfig;
import io.quotaflow.admission.http.Reviews;
import io.quotaflow.admission.http.TestClusters;
import io.quotaflow.admission.machine.AdmissionMode;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.reason.Reason;
import io.quotaflow.tree.Fixtures;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * docs/semantics.md section 23: every pod the plugin turns away is written to its denial log
 * (denials.v1 in the engine), once per decision, by either endpoint; dry runs and warnings are not
 * denials of a pod and are not written.
 */
class DenialLogTest {

  private static final String WEBHOOK = "/clusters/east/admission/pods";
  private static final String FILTER = "/clusters/east/scheduler/filter";

  private final List<DenialLog.Entry> written = new CopyOnWriteArrayList<>();
  private AdmissionServer server;
  private Plugin plugin;

  /** 100 cores; team (namespace alpha) may use 10. */
  private void start(PluginConfig config) {
    final SnapshotClusterState state =
        TestClusters.state(
            Fixtures.cluster()
                .total(cpu(100_000))
                .group(
                    quota("team").min(cpu(5_000)).max(cpu(10_000)).namespaces(List.of("alpha"))));
    server = AdmissionServer.builder(config, state).denials(written::add).build().start();
    plugin =
        new Plugin(server, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build());
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void aWebhookDenialIsWrittenWithItsGroupReasonMessageAndRequest() {
    start(PluginConfig.plainHttpOnLoopback(0));

    plugin.post(WEBHOOK, createPod("u1", pod("alpha", "big").cpu("25")));
    plugin.post(WEBHOOK, createPod("u2", pod("alpha", "small").cpu("1")));

    assertThat(written).hasSize(1);
    final DenialLog.Entry entry = written.get(0);
    assertThat(entry.cluster()).isEqualTo("east");
    assertThat(entry.pod()).isEqualTo(new PodRef("alpha", "big"));
    assertThat(entry.group()).isEqualTo("team");
    assertThat(entry.reason()).isEqualTo(Reason.EXCEEDS_MAX);
    assertThat(entry.endpoint()).isEqualTo(DenialLog.Endpoint.WEBHOOK);
    assertThat(entry.request()).isEqualTo(ResourceList.of(ResourceList.CPU, 25_000));
    assertThat(entry.message()).contains("does not fit quota group team").contains("exceeds-max");
  }

  @Test
  void aFilterRefusalIsWrittenEachTime() {
    start(PluginConfig.plainHttpOnLoopback(0));

    plugin.post(FILTER, Reviews.filterArgsWithNames(pod("alpha", "big").cpu("25"), "n1", "n2"));
    plugin.post(FILTER, Reviews.filterArgsWithNames(pod("alpha", "big").cpu("25"), "n1", "n2"));

    assertThat(written)
        .extracting(DenialLog.Entry::endpoint, DenialLog.Entry::reason)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(DenialLog.Endpoint.FILTER, Reason.EXCEEDS_MAX),
            org.assertj.core.groups.Tuple.tuple(DenialLog.Endpoint.FILTER, Reason.EXCEEDS_MAX));
  }

  @Test
  void aDryRunIsCountedButNotWritten() {
    start(PluginConfig.plainHttpOnLoopback(0));

    final var answer = plugin.post(WEBHOOK, dryRunCreatePod("u1", pod("alpha", "big").cpu("25")));

    assertThat(answer.json().get("response").get("allowed").asBoolean()).isFalse();
    assertThat(written).isEmpty();
  }

  @Test
  void aWarningInWarnModeIsNotADenial() {
    start(PluginConfig.plainHttpOnLoopback(0).withMode(AdmissionMode.WARN));

    final var answer = plugin.post(WEBHOOK, createPod("u1", pod("alpha", "big").cpu("25")));

    assertThat(answer.json().get("response").get("allowed").asBoolean()).isTrue();
    assertThat(written).isEmpty();
  }
}
