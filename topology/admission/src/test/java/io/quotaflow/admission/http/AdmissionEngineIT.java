package io.quotaflow.admission.http;

import static io.quotaflow.admission.http.AdmissionInputs.TIMEOUT;
import static io.quotaflow.admission.http.AdmissionInputs.awaitTeamA;
import static io.quotaflow.admission.http.AdmissionInputs.pod;
import static io.quotaflow.admission.http.AdmissionInputs.teamA;
import static io.quotaflow.admission.http.Reviews.createPod;
import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.http.PluginInstances.Instance;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.engine.EngineInstances;
import io.quotaflow.engine.KafkaInputs;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The plugin beside real engines on the in-process broker: inputs in, the engine computes, the
 * webhook answers from the interactive stores; with two instances, each answers for every cluster
 * by forwarding to the owner.
 */
@Tag("smoke")
@ExtendWith(EmbeddedKafkaExtension.class)
class AdmissionEngineIT {

  /** team-a's clusters: 10 cores and 40 GiB. */
  private static final Map<String, Long> TEN_CORES = Map.of("cpu", 10_000L, "memory", 40L << 30);

  private EmbeddedKafkaBroker broker;
  private EngineInstances engines;
  private PluginInstances instances;

  @BeforeEach
  void anApplication(EmbeddedKafkaBroker broker) {
    this.broker = broker;
    engines = new EngineInstances(broker.bootstrapServers(), Map.of());
    instances = new PluginInstances(engines);
  }

  @AfterEach
  void close() {
    instances.close();
    engines.close();
  }

  @Test
  void theWebhookDeniesAPodThatDoesNotFitAndAdmitsOneThatFits() throws Exception {
    final Instance instance = startInstance(false);
    final PluginClient plugin = instance.client();
    try (KafkaInputs inputs = inputs()) {
      teamA(inputs, "east", TEN_CORES);
    }
    awaitTeamA(plugin, "east");

    // With the pod counted team-a may borrow up to its max of 6 cores: its own request (1 core,
    // from its runtime record) plus the pod's.
    final JsonNode tooBig =
        plugin.review("east", createPod("u1", Reviews.pod("alpha", "big").cpu("5001m")));
    final JsonNode fits =
        plugin.review("east", createPod("u2", Reviews.pod("alpha", "a-2").cpu("5000m")));

    assertThat(tooBig.get("allowed").asBoolean()).isFalse();
    assertThat(tooBig.get("status").get("message").asText())
        .contains("group team-a cpu: used 1 + in-flight 0 + request 5001m > runtime 6");
    assertThat(fits.get("allowed").asBoolean()).isTrue();
    assertThat(instance.plugin().holds().of("east").held()).isEqualTo(1);

    // The admitted pod is created and bound: once the engine counts it, its in-flight hold goes.
    try (KafkaInputs inputs = inputs()) {
      inputs.putPod("east", "alpha", "a-2", pod("alpha", "a-2", 5_000, true)).flush();
    }
    await()
        .atMost(TIMEOUT)
        .untilAsserted(() -> assertThat(instance.plugin().holds().of("east").held()).isZero());
    final JsonNode after =
        plugin.review("east", createPod("u3", Reviews.pod("alpha", "a-3").cpu("1m")));
    assertThat(after.get("allowed").asBoolean()).isFalse();
  }

  @Test
  void theWhatIfCountsThePendingPodsOfAGroupWhoseRequestSitsAtItsFloor() throws Exception {
    final PluginClient plugin = startInstance(false).client();
    try (KafkaInputs inputs = inputs()) {
      department(inputs, "south");
    }
    awaitDepartment(plugin, "south");

    // team (no lending, min 20) asks 10 running + 10 pending = its floor of 20, and dept gets
    // what its children ask: 20 + mate's 10 (capped at its max; mate holds 20). With a 5-core pod
    // team asks 25 and dept gets 35, room for dept's used 30 + 5. Had team's used (10) stood in
    // for its own request, team would still ask 20, dept would stay at 30, and the pod be denied.
    final JsonNode answer =
        plugin.review("south", createPod("s1", Reviews.pod("alpha", "five").cpu("5000m")));

    assertThat(answer.get("allowed").asBoolean()).as(answer.toString()).isTrue();
    // dept stays bounded by its max of 50 cores.
    final JsonNode tooBig =
        plugin.review("south", createPod("s2", Reviews.pod("alpha", "too-big").cpu("15001m")));
    assertThat(tooBig.get("allowed").asBoolean()).as(tooBig.toString()).isFalse();
    assertThat(tooBig.get("status").get("message").asText())
        .contains("group dept cpu: used 30 + in-flight 5 + request 15001m > runtime 50");
  }

  @Test
  void twoInstancesAnswerForEveryClusterByForwardingToTheOwner() throws Exception {
    final Instance first = startInstance(true);
    final Instance second = startInstance(true);
    try (KafkaInputs inputs = inputs()) {
      teamA(inputs, "east", TEN_CORES);
      teamA(inputs, "west", TEN_CORES);
    }
    for (final Instance instance : List.of(first, second)) {
      for (final String cluster : List.of("east", "west")) {
        awaitTeamA(instance.client(), cluster);
      }
    }

    int uid = 0;
    for (final Instance instance : List.of(first, second)) {
      for (final String cluster : List.of("east", "west")) {
        final JsonNode answer =
            instance
                .client()
                .review(cluster, createPod("u" + uid, Reviews.pod("alpha", "p" + uid++).cpu("1m")));
        assertThat(answer.get("allowed").asBoolean()).as(answer.toString()).isTrue();
        assertThat(answer.has("warnings")).as(answer.toString()).isFalse();
      }
    }

    // Each cluster's in-flight holds live on its owner alone, and each non-owner forwarded.
    for (final String cluster : List.of("east", "west")) {
      final int onFirst = first.plugin().holds().find(cluster).map(a -> a.held()).orElse(0);
      final int onSecond = second.plugin().holds().find(cluster).map(a -> a.held()).orElse(0);
      assertThat(List.of(onFirst, onSecond)).as(cluster).containsExactlyInAnyOrder(0, 2);
    }
    final String metrics = first.client().get("/metrics") + second.client().get("/metrics");
    assertThat(metrics).contains("outcome=\"forwarded\"");
  }

  /** An engine with its plugin, running. */
  private Instance startInstance(boolean named) {
    final Instance instance = instances.start(named);
    await()
        .atMost(TIMEOUT)
        .until(() -> instance.engine().streams().state() == KafkaStreams.State.RUNNING);
    return instance;
  }

  private KafkaInputs inputs() {
    return new KafkaInputs(broker.bootstrapServers(), engines.topics());
  }

  /**
   * Cluster {@code name}: 100 cores; dept (a parent, min and max 50 cores) holds team (no lending,
   * min 20 cores) with a 10-core pod running and one pending, and mate (min and max 10 cores)
   * running 20 cores, over its max.
   */
  private static void department(KafkaInputs inputs, String cluster) {
    inputs
        .putNode(cluster, "node-1", AdmissionInputs.node(Map.of("cpu", 100_000L)))
        .putQuota(cluster, "dept", quota().isParent().min(cpu(50_000)).max(cpu(50_000)).build())
        .putQuota(
            cluster,
            "team",
            quota()
                .parent("dept")
                .min(cpu(20_000))
                .max(cpu(50_000))
                .allowLent(false)
                .namespaces("alpha")
                .build())
        .putQuota(
            cluster,
            "mate",
            quota().parent("dept").min(cpu(10_000)).max(cpu(10_000)).namespaces("beta").build())
        .putPod(cluster, "alpha", "running", pod("alpha", "running", 10_000, true))
        .putPod(cluster, "alpha", "pending", pod("alpha", "pending", 10_000, false))
        .putPod(cluster, "beta", "big", pod("beta", "big", 20_000, true))
        .flush();
  }

  private static void awaitDepartment(PluginClient plugin, String cluster) {
    await()
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () -> {
              final JsonNode team = plugin.quota(cluster, "team");
              assertThat(team.get("pods")).hasSize(2);
              assertThat(team.get("quota").get("runtime").get("cpu").asLong()).isEqualTo(20_000);
              final JsonNode dept = plugin.quota(cluster, "dept").get("quota");
              assertThat(dept.get("used").get("cpu").asLong()).isEqualTo(30_000);
              assertThat(dept.get("runtime").get("cpu").asLong()).isEqualTo(30_000);
            });
  }
}
