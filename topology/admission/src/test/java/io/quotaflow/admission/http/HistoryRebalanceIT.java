package io.quotaflow.admission.http;

import static io.quotaflow.admission.http.AdmissionInputs.TIMEOUT;
import static io.quotaflow.admission.http.AdmissionInputs.awaitTeamA;
import static io.quotaflow.admission.http.AdmissionInputs.pod;
import static io.quotaflow.admission.http.AdmissionInputs.teamA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.endpoint.Json;
import io.quotaflow.admission.http.PluginInstances.Instance;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.engine.EngineInstances;
import io.quotaflow.engine.KafkaInputs;
import io.quotaflow.engine.config.HistorySettings;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * docs/semantics.md section 23 through a rebalance: with a second instance the history of a cluster
 * is answered the same by both (the other forwards to the owner), and once the first instance is
 * gone the second, which restored the cluster's task from the changelogs, answers the same
 * integrals.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class HistoryRebalanceIT {

  private static final String CLUSTER = "east";

  @Test
  void theHistoryIsTheSameFromEitherInstanceAndAfterTheOwnerLeaves(EmbeddedKafkaBroker broker)
      throws Exception {
    try (EngineInstances engines =
            new EngineInstances(
                broker.bootstrapServers(), Map.of(HistorySettings.HISTORY_STEP.key(), "1s"));
        PluginInstances instances = new PluginInstances(engines)) {
      final Instant from = Instant.now().truncatedTo(ChronoUnit.SECONDS);
      final Instance first = instances.start(true);
      try (KafkaInputs inputs = new KafkaInputs(broker.bootstrapServers(), engines.topics())) {
        teamA(inputs, CLUSTER, Map.of("cpu", 10_000L));
        awaitTeamA(first.client(), CLUSTER);
        inputs.putPod(CLUSTER, "alpha", "a-2", pod("alpha", "a-2", 4_000, true)).flush();
      }
      await()
          .atMost(TIMEOUT)
          .untilAsserted(
              () ->
                  assertThat(
                          first
                              .client()
                              .quota(CLUSTER, "team-a")
                              .get("quota")
                              .get("used")
                              .get("cpu")
                              .asLong())
                      .isEqualTo(5_000));
      final Instant to = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(2);
      await().atMost(TIMEOUT).until(() -> Instant.now().isAfter(to));
      final String period = "?from=" + from + "&to=" + to + "&step=1s";
      final JsonNode before = history(first.client(), period);
      assertThat(before.get("resources").get("cpu").get("borrowed").get("integral").toString())
          .as("team-a borrowed in the period")
          .containsPattern("\"[1-9]");

      final Instance second = instances.start(true);
      await()
          .atMost(TIMEOUT)
          .until(
              () ->
                  EngineInstances.running(first.engine())
                      && EngineInstances.running(second.engine()));
      for (final Instance asked : new Instance[] {first, second}) {
        await()
            .atMost(TIMEOUT)
            .untilAsserted(
                () ->
                    assertThat(history(asked.client(), period).get("resources"))
                        .isEqualTo(before.get("resources")));
      }

      first.plugin().close();
      first.engine().close();
      await()
          .atMost(TIMEOUT)
          .untilAsserted(
              () ->
                  assertThat(history(second.client(), period).get("resources"))
                      .isEqualTo(before.get("resources")));
    }
  }

  private static JsonNode history(PluginClient client, String period) throws Exception {
    final HttpResponse<String> response =
        client.call("GET", "/api/v1/clusters/" + CLUSTER + "/quotas/team-a/history" + period, "");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return Json.MAPPER.readTree(response.body());
  }
}
