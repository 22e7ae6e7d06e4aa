package io.quotaflow.cli;

import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.node;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.Ports;
import io.quotaflow.engine.EngineInstances;
import io.quotaflow.engine.KafkaInputs;
import io.quotaflow.engine.KafkaOutputs;
import io.quotaflow.topics.TopicCatalogue;
import io.quotaflow.tree.QuotaOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code quotaflow engine} started while its Kafka is down (issue 26, survive don't exit): the
 * process stays up with the admission plugin serving, alive ({@code /healthz} 200) but not ready
 * ({@code /readyz} 503), retrying the topics with a backoff; once the broker is back (same data,
 * same port) it provisions, computes and turns ready.
 */
@Tag("fault")
class EngineCommandKafkaAwayIT {

  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;

  @Test
  void theEngineWaitsForAKafkaThatIsDownAtStartThenRuns() throws Exception {
    final Path data = Files.createTempDirectory(dir, "broker");
    EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().dataDir(data).build().start();
    final int kafkaPort = broker.port();
    final String bootstrap = broker.bootstrapServers();
    broker.close();

    final String id = UUID.randomUUID().toString().substring(0, 8);
    final String prefix = "away-" + id + ".";
    final int httpPort = freePort();
    final EngineCommand command =
        new EngineCommand(
            Map.ofEntries(
                Map.entry("QUOTAFLOW_TOPIC_PREFIX", prefix),
                Map.entry("QUOTAFLOW_KAFKA_COMMIT_INTERVAL_MS", "100"),
                Map.entry("QUOTAFLOW_METRICS_PORT", "-1"),
                Map.entry("QUOTAFLOW_STARTUP_RETRY_BACKOFF", "200ms"),
                Map.entry("QUOTAFLOW_STARTUP_RETRY_MAX_BACKOFF", "1s"),
                Map.entry("QUOTAFLOW_KAFKA_DEFAULT_API_TIMEOUT_MS", "2000"),
                Map.entry("QUOTAFLOW_KAFKA_REQUEST_TIMEOUT_MS", "1500"),
                Map.entry("QUOTAFLOW_ADMISSION_PLAIN_HTTP", "true"),
                Map.entry("QUOTAFLOW_ADMISSION_BIND_ADDRESS", "127.0.0.1"),
                Map.entry("QUOTAFLOW_ADMISSION_PORT", Integer.toString(httpPort))),
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    final CompletableFuture<Integer> exit =
        CompletableFuture.supplyAsync(
            () ->
                new CommandLine(command)
                    .execute(
                        "--bootstrap-servers",
                        bootstrap,
                        "--application-id",
                        "quotaflow-away-" + id,
                        "--state-dir",
                        EngineInstances.stateDir().toString(),
                        "--partitions",
                        "2"));
    final HttpClient http = HttpClient.newHttpClient();
    try {
      await()
          .atMost(WAIT)
          .ignoreExceptions()
          .untilAsserted(
              () -> {
                final HttpResponse<String> ready = get(http, httpPort, "/readyz");
                assertThat(ready.statusCode()).isEqualTo(503);
                // At least one attempt failed and is being retried.
                assertThat(ready.body()).contains("has not started", "attempts");
              });
      assertThat(get(http, httpPort, "/healthz").statusCode())
          .as("alive while waiting for Kafka")
          .isEqualTo(200);
      assertThat(exit).as("the process stays up").isNotDone();

      broker = EmbeddedKafkaBroker.builder().dataDir(data).port(kafkaPort).build().start();

      await()
          .atMost(WAIT)
          .ignoreExceptions()
          .untilAsserted(
              () -> assertThat(get(http, httpPort, "/readyz").statusCode()).isEqualTo(200));
      final TopicCatalogue topics = TopicCatalogue.withPrefix(prefix);
      try (KafkaInputs inputs = new KafkaInputs(broker.bootstrapServers(), topics);
          KafkaOutputs outputs = new KafkaOutputs(broker.bootstrapServers(), topics)) {
        inputs
            .putNode("east", "n1", node(4_000))
            .putQuota("east", "team", quota().min(cpu(1_000)).max(cpu(2_000)).build())
            .flush();
        await()
            .atMost(WAIT)
            .untilAsserted(
                () ->
                    assertThat(outputs.poll().table("east"))
                        .isEqualTo(inputs.model().expected("east", QuotaOptions.DEFAULTS)));
      }
      assertThat(exit).isNotDone();
    } finally {
      command.stop();
      assertThat(exit).succeedsWithin(WAIT).isEqualTo(0);
      broker.close();
    }
  }

  private static HttpResponse<String> get(final HttpClient http, final int port, final String path)
      throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** A port below the ephemeral range, which no outgoing connection takes meanwhile. */
  private static int freePort() {
    return Ports.free(1).get(0);
  }
}
