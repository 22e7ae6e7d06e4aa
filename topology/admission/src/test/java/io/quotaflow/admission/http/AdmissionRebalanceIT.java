package io.quotaflow.admission.http;

import static io.quotaflow.admission.http.AdmissionInputs.TIMEOUT;
import static io.quotaflow.admission.http.AdmissionInputs.awaitTeamA;
import static io.quotaflow.admission.http.AdmissionInputs.teamA;
import static io.quotaflow.admission.http.Reviews.createPod;
import static io.quotaflow.admission.http.Reviews.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.http.PluginInstances.Instance;
import io.quotaflow.admission.state.LastKnownState;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.engine.EngineInstances;
import io.quotaflow.engine.KafkaInputs;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A second engine instance joins the application of one that answers admissions: during the
 * rebalance the first keeps answering from the last state it read, as before (never by the failure
 * policy), stating its staleness, and stays ready.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class AdmissionRebalanceIT {

  private static final String CLUSTER = "east";

  /** What the first instance answered at one moment of the rebalance. */
  private record Observed(
      KafkaStreams.State before, JsonNode fits, JsonNode tooBig, int ready, String readyBody) {}

  @Test
  void duringARebalanceAdmissionsAreAnsweredFromTheLastStateAndTheInstanceStaysReady(
      EmbeddedKafkaBroker broker) throws Exception {
    try (EngineInstances engines = new EngineInstances(broker.bootstrapServers(), Map.of());
        PluginInstances instances = new PluginInstances(engines)) {
      final Instance first = instances.start(true);
      final AdmissionServer plugin = first.plugin();
      final PluginClient client = first.client();
      await().atMost(TIMEOUT).until(() -> EngineInstances.running(first.engine()));
      try (KafkaInputs inputs = new KafkaInputs(broker.bootstrapServers(), engines.topics())) {
        teamA(inputs, CLUSTER, Map.of("cpu", 10_000L));
      }
      awaitTeamA(client, CLUSTER);
      // The plugin reads group specifications at most admission.spec TTL (1 s) apart: the runtime
      // can be there before its admissions see team-a. Start once they judge alpha's pods by it
      // (a denied pod holds nothing).
      final AtomicInteger probes = new AtomicInteger();
      await()
          .atMost(TIMEOUT)
          .untilAsserted(
              () ->
                  assertThat(
                          review(client, "probe-" + probes.incrementAndGet(), "5001m")
                              .path("status")
                              .path("message")
                              .asText())
                      .contains("does not fit quota group team-a"));
      plugin.refreshLastState();
      assertThat(plugin.lastKnownState().recall(CLUSTER)).isInstanceOf(LastKnownState.Usable.class);
      final JsonNode live = review(client, "live", "1m");
      assertThat(live.get("allowed").asBoolean()).as(live.toString()).isTrue();
      assertThat(live.has("warnings")).isFalse();

      final Instance second = instances.start(true);
      final List<Observed> seen = new ArrayList<>();
      final Instant deadline = Instant.now().plus(TIMEOUT);
      int settledRounds = 0;
      // Until both instances run again after first was seen rebalancing, and a few rounds more.
      while (settledRounds < 20 && Instant.now().isBefore(deadline)) {
        final KafkaStreams.State before = first.engine().streams().state();
        final int n = seen.size();
        final JsonNode fits = review(client, "fits-" + n, "1m");
        final JsonNode tooBig = review(client, "big-" + n, "5001m");
        final HttpResponse<String> ready = client.call("GET", "/readyz", "");
        seen.add(new Observed(before, fits, tooBig, ready.statusCode(), ready.body()));
        final boolean rebalanced =
            seen.stream().anyMatch(o -> o.before() == KafkaStreams.State.REBALANCING);
        if (rebalanced
            && EngineInstances.running(first.engine())
            && EngineInstances.running(second.engine())) {
          settledRounds++;
        }
      }

      assertThat(seen)
          .as("first instance went through a rebalance")
          .anyMatch(o -> o.before() == KafkaStreams.State.REBALANCING);
      assertThat(seen)
          .allSatisfy(
              o -> {
                assertThat(o.fits().get("allowed").asBoolean()).as(o.fits().toString()).isTrue();
                assertThat(o.tooBig().get("allowed").asBoolean())
                    .as(o.tooBig().toString())
                    .isFalse();
                assertThat(o.tooBig().get("status").get("message").asText())
                    .contains("does not fit quota group team-a");
                assertThat(o.fits().toString() + o.tooBig())
                    .doesNotContain("could not check", "fail-open", "fail-closed");
                assertThat(o.ready()).as(o.readyBody()).isEqualTo(200);
              });
      assertThat(seen)
          .as("answers from the last state state their staleness")
          .anyMatch(
              o ->
                  o.fits().path("warnings").path(0).asText().contains("last state of cluster east")
                      && o.fits().path("warnings").path(0).asText().contains("ms old")
                      && o.fits().path("auditAnnotations").has("state-age-ms"));
      assertThat(seen)
          .as("readiness names the rebalance")
          .anyMatch(o -> o.ready() == 200 && o.readyBody().contains("REBALANCING"));
      assertThat(client.get("/metrics"))
          .contains("quotaflow_admission_stale_answers_total{cluster=\"east\"")
          .contains("quotaflow_admission_state_age_seconds{cluster=\"east\"}");
    }
  }

  /** A pod of team-a asking {@code cpu}, created; room is 5 cores. */
  private static JsonNode review(PluginClient client, String name, String cpu) throws IOException {
    return client.review(CLUSTER, createPod(name, pod("alpha", name).cpu(cpu)));
  }
}
