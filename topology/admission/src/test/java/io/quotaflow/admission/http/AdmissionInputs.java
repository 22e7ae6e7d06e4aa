package io.quotaflow.admission.http;

import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.engine.KafkaInputs;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodPhase;
import io.quotaflow.schemas.PodState;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * The input records the admission integration tests give the engine, and their first scene: a
 * cluster of 10 cores where team-a (min 4, max 6 cores, no lending, namespace alpha) runs a 1-core
 * pod, a-1.
 */
final class AdmissionInputs {

  /** How long the engine may take to start and to compute a scene. */
  static final Duration TIMEOUT = Duration.ofSeconds(90);

  private AdmissionInputs() {}

  /** team-a's cluster {@code cluster}, its one node's allocatable {@code allocatable}. */
  static void teamA(KafkaInputs inputs, String cluster, Map<String, Long> allocatable) {
    inputs
        .putNode(cluster, "node-1", node(allocatable))
        .putQuota(
            cluster,
            "team-a",
            quota().min(cpu(4_000)).max(cpu(6_000)).allowLent(false).namespaces("alpha").build())
        .putPod(cluster, "alpha", "a-1", pod("alpha", "a-1", 1_000, true))
        .flush();
  }

  /** Waits until the plugin answers for team-a's cluster: runtime its min of 4 cores, used 1. */
  static void awaitTeamA(PluginClient plugin, String cluster) {
    await()
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () -> {
              final JsonNode quota = plugin.quota(cluster, "team-a").get("quota");
              assertThat(quota.get("runtime").get("cpu").asLong()).isEqualTo(4_000);
              assertThat(quota.get("used").get("cpu").asLong()).isEqualTo(1_000);
            });
  }

  /** A ready, schedulable node. */
  static NodeState node(Map<String, Long> allocatable) {
    return NodeState.newBuilder()
        .setAllocatable(allocatable)
        .setReady(true)
        .setSchedulable(true)
        .setDeleting(false)
        .build();
  }

  /** A preemptible pod asking {@code milliCpu}: running on node-1 when bound, else pending. */
  static PodState pod(String namespace, String name, long milliCpu, boolean bound) {
    final PodState.Builder state =
        PodState.newBuilder()
            .setUid(namespace + "-" + name)
            .setPhase(bound ? PodPhase.RUNNING : PodPhase.PENDING)
            .setRequests(Map.of("cpu", milliCpu))
            .setPreemptible(true)
            .setCreationTime(Instant.parse("2026-03-01T12:00:00Z"));
    if (bound) {
      state.setNodeName("node-1");
    }
    return state.build();
  }
}
