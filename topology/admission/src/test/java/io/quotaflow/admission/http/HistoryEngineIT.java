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
import java.math.BigInteger;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * docs/semantics.md section 23 beside a real engine on the in-process broker: the history endpoint
 * shows what team-a used and borrowed, and an instance started afterwards on an empty state
 * directory restores the same history from its changelog, to the unit-millisecond, with the denial
 * the webhook wrote to denials.v1; the report's totals are the sums of the history's steps.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class HistoryEngineIT {

  private static final String CLUSTER = "east";

  @Test
  void theHistoryShowsTheBorrowingAndSurvivesARestartFromTheChangelog(EmbeddedKafkaBroker broker)
      throws Exception {
    // One-second steps, so that a run of a few seconds spans several.
    try (EngineInstances engines =
        new EngineInstances(
            broker.bootstrapServers(), Map.of(HistorySettings.HISTORY_STEP.key(), "1s"))) {
      final Instant from = Instant.now().truncatedTo(ChronoUnit.SECONDS);
      final JsonNode before;
      final JsonNode report;
      final String period;
      try (PluginInstances first = new PluginInstances(engines)) {
        final Instance instance = first.start(false);
        try (KafkaInputs inputs = new KafkaInputs(broker.bootstrapServers(), engines.topics())) {
          teamA(inputs, CLUSTER, Map.of("cpu", 10_000L));
          awaitTeamA(instance.client(), CLUSTER);
          // A pod beyond team-a's max of 6 cores, turned away: written to denials.v1.
          assertThat(
                  instance
                      .client()
                      .review(
                          CLUSTER,
                          Reviews.createPod("u-huge", Reviews.pod("alpha", "huge").cpu("20")))
                      .get("allowed")
                      .asBoolean())
              .isFalse();
          // team-a (min 4) runs 1 + 4 cores: borrows 1.
          inputs.putPod(CLUSTER, "alpha", "a-2", pod("alpha", "a-2", 4_000, true)).flush();
        }
        await()
            .atMost(TIMEOUT)
            .untilAsserted(
                () ->
                    assertThat(
                            instance
                                .client()
                                .quota(CLUSTER, "team-a")
                                .get("quota")
                                .get("used")
                                .get("cpu")
                                .asLong())
                        .isEqualTo(5_000));
        // Two whole seconds of borrowing, then a period that ends in the past.
        final Instant to = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(2);
        await().atMost(TIMEOUT).until(() -> Instant.now().isAfter(to));
        period = "?from=" + from + "&to=" + to + "&step=1s";
        // The denial reaches the history through Kafka: wait for it, then read the history.
        final AtomicReference<JsonNode> reported = new AtomicReference<>();
        await()
            .atMost(TIMEOUT)
            .untilAsserted(
                () -> {
                  reported.set(get(instance.client(), "/report?from=" + from + "&to=" + to));
                  assertThat(teamARow(reported.get()).get("denials").toString())
                      .isEqualTo("{\"exceeds-max\":1}");
                });
        report = reported.get();
        before = history(instance.client(), period);
        instance.plugin().close();
        instance.engine().close();
      }

      final JsonNode cpu = before.get("resources").get("cpu");
      assertThat(sum(cpu.get("borrowed")))
          .as("one core borrowed for over a second")
          .isGreaterThan(BigInteger.valueOf(1_000L * 1_000));
      assertThat(cpu.get("used").get("average").get(before.get("steps").size() - 1).asLong())
          .isEqualTo(5_000);

      // The report's totals are the sums of the history's steps, to the unit-millisecond.
      final JsonNode totals = teamARow(report).get("resources").get("cpu").get("integrals");
      cpu.fields()
          .forEachRemaining(
              metric ->
                  assertThat(new BigInteger(totals.get(metric.getKey()).asText()))
                      .as(metric.getKey())
                      .isEqualTo(sum(metric.getValue())));

      try (PluginInstances second = new PluginInstances(engines)) {
        final Instance restarted = second.start(false);
        await()
            .atMost(TIMEOUT)
            .untilAsserted(
                () -> {
                  final JsonNode after = history(restarted.client(), period);
                  assertThat(after.get("steps")).isEqualTo(before.get("steps"));
                  assertThat(after.get("resources")).isEqualTo(before.get("resources"));
                });
      }
    }
  }

  private static JsonNode teamARow(JsonNode report) {
    for (final JsonNode row : report.get("groups")) {
      if (row.get("group").asText().equals("team-a")) {
        return row;
      }
    }
    throw new AssertionError("no team-a in " + report);
  }

  private static JsonNode history(PluginClient client, String period) throws Exception {
    return get(client, "/quotas/team-a/history" + period);
  }

  private static JsonNode get(PluginClient client, String path) throws Exception {
    final HttpResponse<String> response =
        client.call("GET", "/api/v1/clusters/" + CLUSTER + path, "");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return Json.MAPPER.readTree(response.body());
  }

  private static BigInteger sum(JsonNode metric) {
    BigInteger total = BigInteger.ZERO;
    for (final JsonNode integral : metric.get("integral")) {
      total = total.add(new BigInteger(integral.asText()));
    }
    return total;
  }
}
