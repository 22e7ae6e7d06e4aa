package io.quotaflow.admission.http;

import static io.quotaflow.admission.http.AdmissionInputs.TIMEOUT;
import static io.quotaflow.admission.http.AdmissionInputs.pod;
import static io.quotaflow.admission.http.AdmissionInputs.teamA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.endpoint.Json;
import io.quotaflow.admission.http.PluginInstances.Instance;
import io.quotaflow.admission.inflight.ClusterAdmissions;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.engine.EngineInstances;
import io.quotaflow.engine.KafkaInputs;
import io.quotaflow.kube.GangConventions;
import io.quotaflow.quota.PodRef;
import io.quotaflow.schemas.PodGang;
import io.quotaflow.schemas.PodState;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * docs/semantics.md section 21, admission of gangs, beside a real engine on the in-process broker:
 * gangs' pods reach the engine with their gang (PodState v2), and the scheduler filter judges a
 * gang's first placement whole.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class GangAdmissionEngineIT {

  private static final String FILTER = "/clusters/east/scheduler/filter";

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
  void theSchedulerFilterPlacesAGangOnlyIfItFitsWhole() throws Exception {
    final Instance instance = instances.start(false);
    await()
        .atMost(TIMEOUT)
        .until(() -> instance.engine().streams().state() == KafkaStreams.State.RUNNING);
    final PluginClient plugin = instance.client();
    // team-a: 1 core used, max 6. Gang big: three pods of 2 cores (1 + 6 > 6); gang small: three
    // pods of 1 core (1 + 3 fits beside big's pending pods, which are only requested).
    try (KafkaInputs inputs = new KafkaInputs(broker.bootstrapServers(), engines.topics())) {
      teamA(inputs, "east", Map.of("cpu", 10_000L, "memory", 40L << 30));
      for (int i = 0; i < 3; i++) {
        inputs.putPod("east", "alpha", "big-" + i, member("big-" + i, "big", 2_000));
        inputs.putPod("east", "alpha", "small-" + i, member("small-" + i, "small", 1_000));
      }
      inputs.flush();
    }
    // The six pending pods raise team-a's request: it borrows up to its max.
    await()
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () -> {
              final JsonNode teamA = plugin.quota("east", "team-a");
              assertThat(teamA.get("pods")).hasSize(7);
              assertThat(teamA.get("quota").get("runtime").get("cpu").asLong()).isEqualTo(6_000);
              assertThat(teamA.get("quota").get("used").get("cpu").asLong()).isEqualTo(1_000);
            });

    // Each answer is awaited: one given by the failure policy while the stores are still being
    // opened holds nothing, and an answer decided again is the same.
    final ClusterAdmissions east = instance.plugin().holds().of("east");
    await()
        .atMost(TIMEOUT)
        .untilAsserted(
            () -> {
              final HttpResponse<String> answer = filterCall(plugin, "big-0", "big", "2");
              final JsonNode big = Json.MAPPER.readTree(answer.body());
              assertThat(big.get("FailedAndUnresolvableNodes").path("node-1").asText())
                  .as("%s %s holds %s", answer.headers().map(), big, east.heldAt("team-a"))
                  .contains("gang big needs 3 pods of cpu 2")
                  .contains("request 6 > runtime 6");
            });
    assertThat(east.held()).isZero();

    for (int i = 0; i < 3; i++) {
      final String name = "small-" + i;
      await()
          .atMost(TIMEOUT)
          .untilAsserted(
              () -> {
                final JsonNode small = filter(plugin, name, "small", "1");
                assertThat(small.get("FailedAndUnresolvableNodes").size())
                    .as(small.toString())
                    .isZero();
                assertThat(east.holds(new PodRef("alpha", name))).isTrue();
              });
      // The first member holds the room of the two others; each takes its part.
      assertThat(east.holds(new PodRef("alpha", "gang/small"))).isEqualTo(i < 2);
    }
    assertThat(east.held()).isEqualTo(3);
  }

  private static JsonNode filter(PluginClient plugin, String name, String gang, String cpu)
      throws java.io.IOException {
    return Json.MAPPER.readTree(filterCall(plugin, name, gang, cpu).body());
  }

  private static HttpResponse<String> filterCall(
      PluginClient plugin, String name, String gang, String cpu) throws java.io.IOException {
    final HttpResponse<String> response =
        plugin.call(
            "POST",
            FILTER,
            Reviews.filterArgsWithNames(
                Reviews.pod("alpha", name)
                    .cpu(cpu)
                    .annotation(GangConventions.KOORDINATOR_NAME, gang)
                    .annotation(GangConventions.KOORDINATOR_MIN_AVAILABLE, "3"),
                "node-1"));
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return response;
  }

  private static PodState member(String name, String gang, long milliCpu) {
    return PodState.newBuilder(pod("alpha", name, milliCpu, false))
        .setGang(
            PodGang.newBuilder()
                .setName(gang)
                .setMinMember(3)
                .setConvention(GangConventions.KOORDINATOR)
                .build())
        .build();
  }
}
