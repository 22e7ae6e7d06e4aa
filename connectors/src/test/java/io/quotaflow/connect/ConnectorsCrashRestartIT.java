package io.quotaflow.connect;

import static io.quotaflow.connect.ConnectProcess.FIRST_START;
import static io.quotaflow.connect.ConnectProcess.NEXT_EVICTION;
import static io.quotaflow.fixtures.Evictions.awaitResult;
import static io.quotaflow.fixtures.Evictions.sendOfTeamA;
import static io.quotaflow.fixtures.KubeObjects.pod;
import static io.quotaflow.fixtures.KubeObjects.quota;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.quotaflow.fixtures.ConnectorRig;
import io.quotaflow.fixtures.EvictionEndpoint;
import io.quotaflow.fixtures.Keys;
import io.quotaflow.fixtures.MockCluster;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionOutcome;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.status.QuotaStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quotaflow connect} killed with -9 and started again as the same pod: the restarted process
 * carries out the next eviction command and writes the next status within 5 s of leading, though
 * its predecessor never left its consumer groups nor released its lease; and SIGTERM then stops it
 * within 5 s.
 */
@Tag("fault")
class ConnectorsCrashRestartIT {

  /** Issue 12's target for stopping. */
  private static final Duration STOP = Duration.ofSeconds(5);

  @RegisterExtension static final ConnectorRig rig = new ConnectorRig("crash");

  @TempDir Path dir;

  @Test
  void afterKillDashNineTheRestartedPodEvictsAndWritesStatusWithinFiveSecondsAndStopsInFive()
      throws Exception {
    final MockCluster mock = rig.mock();
    final String namespace = rig.namespace();
    final String group = MockCluster.uniqueNamespace("team");
    final String lease = MockCluster.uniqueNamespace("lease");
    mock.quotas().resource(quota(namespace, group).min("cpu", "10").build()).create();
    // The topics exist before anything reads or writes them, as the engine would create them.
    final Map<String, String> settings =
        ConnectProcess.settings(
            rig.topics(), lease, Map.of("QUOTAFLOW_STATUS_FLUSH_INTERVAL", "200ms"));
    final Path kubeconfig = ConnectProcess.kubeconfig(mock, dir);

    try (ConnectProcess first =
        ConnectProcess.start("connectors-0", rig.broker(), kubeconfig, settings)) {
      final Pod p1 = createPod(namespace, "batch-1");
      EvictionEndpoint.of(mock, namespace, "batch-1").accepts();
      await()
          .atMost(FIRST_START)
          .untilAsserted(() -> assertThat(first.leads(mock, lease)).as(first.log()).isTrue());
      final EvictionCommand c1 = sendOfTeamA(rig, p1);
      assertThat(awaitResult(rig.broker(), rig.topics(), c1, FIRST_START).getOutcome())
          .isEqualTo(EvictionOutcome.EVICTED);
      sendRuntime(group, 1_000L);
      awaitRuntimeAnnotation(namespace, group, "{\"cpu\":\"1\"}", FIRST_START);

      first.kill();
    }

    try (ConnectProcess restarted =
        ConnectProcess.start("connectors-0", rig.broker(), kubeconfig, settings)) {
      final Pod p2 = createPod(namespace, "batch-2");
      EvictionEndpoint.of(mock, namespace, "batch-2").accepts();
      // The lease names the same pod: the restarted process leads as soon as it has started.
      await().atMost(FIRST_START).until(() -> restarted.log().contains("connectors-0 leads"));

      final EvictionCommand c2 = sendOfTeamA(rig, p2);
      sendRuntime(group, 2_000L);

      assertThat(
              awaitResult(rig.broker(), rig.topics(), c2, NEXT_EVICTION.plusSeconds(1))
                  .getOutcome())
          .as(restarted.log())
          .isEqualTo(EvictionOutcome.EVICTED);
      awaitRuntimeAnnotation(namespace, group, "{\"cpu\":\"2\"}", NEXT_EVICTION);

      restarted.terminate();
      assertThat(restarted.awaitExit(STOP)).as(restarted.log()).isTrue();
    }
  }

  private static Pod createPod(final String namespace, final String name) {
    return rig.mock().create(pod(namespace, name).running("node-a").build());
  }

  private static void sendRuntime(final String group, final long cpu) {
    rig.send(
        rig.topics().runtime(),
        Keys.quota(group),
        GroupRuntime.newBuilder()
            .setRuntime(Map.of("cpu", cpu))
            .setRequest(Map.of("cpu", cpu))
            .setUsed(Map.of("cpu", cpu))
            .setComputedAt(Instant.now())
            .build());
  }

  private static void awaitRuntimeAnnotation(
      final String namespace, final String group, final String expected, final Duration within) {
    await()
        .atMost(within)
        .pollInterval(Duration.ofMillis(100))
        .untilAsserted(
            () -> {
              final GenericKubernetesResource quota =
                  rig.mock().quotas().inNamespace(namespace).withName(group).get();
              assertThat(quota.getMetadata().getAnnotations())
                  .containsEntry(QuotaStatus.RUNTIME_ANNOTATION, expected);
            });
  }
}
