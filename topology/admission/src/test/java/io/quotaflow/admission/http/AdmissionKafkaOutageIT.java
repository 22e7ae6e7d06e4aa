package io.quotaflow.admission.http;

import static io.quotaflow.admission.http.AdmissionInputs.TIMEOUT;
import static io.quotaflow.admission.http.AdmissionInputs.awaitTeamA;
import static io.quotaflow.admission.http.AdmissionInputs.teamA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quotaflow.admission.http.PluginInstances.Instance;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.engine.EngineInstances;
import io.quotaflow.engine.KafkaInputs;
import io.quotaflow.engine.config.EngineSettings;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code /readyz} tells the truth through a Kafka outage (issue 31): 503 while the engine cannot
 * reach Kafka, so cannot commit what it computes, and 200 again once Kafka is back, with the
 * cluster still held. (KafkaOutageIT in the engine shows the state survives a longer outage.)
 */
@Tag("fault")
class AdmissionKafkaOutageIT {
  private static final String CLUSTER = "east";

  @Test
  void readinessIsFalseWhileKafkaIsAwayAndTrueOnceItIsBack() throws Exception {
    final Path data = Files.createTempDirectory("quotaflow-admission-outage-broker");
    EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().dataDir(data).build().start();
    final int port = broker.port();
    try (EngineInstances engines =
            new EngineInstances(
                broker.bootstrapServers(),
                Map.of(
                    EngineSettings.HEALTH_CHECK_INTERVAL.key(),
                    "500ms",
                    EngineSettings.HEALTH_MAX_SILENCE.key(),
                    "5s"));
        PluginInstances instances = new PluginInstances(engines)) {
      final Instance instance = instances.start(false);
      final PluginClient client = instance.client();
      try (KafkaInputs inputs = new KafkaInputs(broker.bootstrapServers(), engines.topics())) {
        teamA(inputs, CLUSTER, Map.of("cpu", 10_000L));
      }
      awaitTeamA(client, CLUSTER);
      assertThat(client.call("GET", "/readyz", "").statusCode()).isEqualTo(200);

      broker.close();
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () -> {
                final HttpResponse<String> ready = client.call("GET", "/readyz", "");
                assertThat(ready.statusCode()).isEqualTo(503);
                assertThat(ready.body()).contains("Kafka has been unreachable since");
              });
      // Not ready for as long as Kafka stays away (nothing to wait for: it must not change), but
      // alive: the stream tasks keep beating (health.max.silence 5 s here, 120 s by default), so
      // an outage does not restart the engine (issue 40.11).
      await()
          .during(Duration.ofSeconds(8))
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () -> {
                assertThat(client.call("GET", "/readyz", "").statusCode()).isEqualTo(503);
                final HttpResponse<String> alive = client.call("GET", "/healthz", "");
                assertThat(alive.statusCode()).as(alive.body()).isEqualTo(200);
              });

      broker = EmbeddedKafkaBroker.builder().dataDir(data).port(port).build().start();
      await()
          .atMost(TIMEOUT)
          .untilAsserted(
              () -> assertThat(client.call("GET", "/readyz", "").statusCode()).isEqualTo(200));
      final HttpResponse<String> alive = client.call("GET", "/healthz", "");
      assertThat(alive.statusCode()).as(alive.body()).isEqualTo(200);
      assertThat(client.get("/api/v1/clusters")).contains(CLUSTER);
    } finally {
      broker.close();
    }
  }
}
