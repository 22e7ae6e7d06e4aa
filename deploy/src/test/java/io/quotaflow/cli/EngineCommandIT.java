package io.quotaflow.cli;

import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.node;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.engine.EngineInstances;
import io.quotaflow.engine.KafkaInputs;
import io.quotaflow.engine.KafkaOutputs;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.topics.TopicCatalogue;
import io.quotaflow.tree.QuotaOptions;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/**
 * {@code quotaflow engine} against a broker: it creates the topics, computes, exports its meters
 * and Kafka Streams' own, and exits 0 when stopped the way SIGTERM stops it.
 */
@Tag("system")
@ExtendWith(EmbeddedKafkaExtension.class)
class EngineCommandIT {

  @Test
  void engineCommandCreatesTopicsRunsAndStopsCleanly(final EmbeddedKafkaBroker broker)
      throws Exception {
    final String id = UUID.randomUUID().toString().substring(0, 8);
    final String prefix = "cmd-" + id + ".";
    final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    final int httpPort = freePort();
    final EngineCommand command =
        new EngineCommand(
            Map.of(
                "QUOTAFLOW_TOPIC_PREFIX", prefix,
                "QUOTAFLOW_KAFKA_COMMIT_INTERVAL_MS", "100",
                "QUOTAFLOW_METRICS_PORT", "0",
                // The admission plugin comes up with the engine; plain HTTP on loopback for the
                // test.
                "QUOTAFLOW_ADMISSION_PLAIN_HTTP", "true",
                "QUOTAFLOW_ADMISSION_BIND_ADDRESS", "127.0.0.1",
                "QUOTAFLOW_ADMISSION_PORT", Integer.toString(httpPort)),
            registry);
    final CompletableFuture<Integer> exit =
        CompletableFuture.supplyAsync(
            () ->
                new CommandLine(command)
                    .execute(
                        "--bootstrap-servers",
                        broker.bootstrapServers(),
                        "--application-id",
                        "quotaflow-cmd-" + id,
                        "--state-dir",
                        EngineInstances.stateDir().toString(),
                        "--partitions",
                        "2"));

    final TopicCatalogue topics = TopicCatalogue.withPrefix(prefix);
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
      await()
          .atMost(EngineInstances.timeout())
          .until(
              () ->
                  admin
                      .listTopics()
                      .names()
                      .get()
                      .containsAll(topics.all().stream().map(t -> t.name()).toList()));
    }
    try (KafkaInputs inputs = new KafkaInputs(broker.bootstrapServers(), topics);
        KafkaOutputs outputs = new KafkaOutputs(broker.bootstrapServers(), topics)) {
      inputs
          .putNode("east", "n1", node(4_000))
          .putQuota("east", "team", quota().min(cpu(1_000)).max(cpu(2_000)).build())
          .flush();
      await()
          .atMost(EngineInstances.timeout())
          .untilAsserted(
              () ->
                  assertThat(outputs.poll().table("east"))
                      .isEqualTo(inputs.model().expected("east", QuotaOptions.DEFAULTS)));
    }
    assertThat(
            registry
                .find(EngineMetrics.RECORDS_READ)
                .tag("topic", topics.quotas().name())
                .counter())
        .isNotNull()
        .satisfies(counter -> assertThat(counter.count()).isEqualTo(1.0));
    assertThat(registry.find(EngineMetrics.RECOMPUTE_TIME).timer().count()).isPositive();
    assertThat(registry.find(EngineMetrics.GROUPS).tag("cluster", "east").gauge().value())
        .isEqualTo(4.0);
    assertThat(registry.getMeters())
        .as("Kafka Streams' own metrics are bridged")
        .anySatisfy(meter -> assertThat(meter.getId().getName()).startsWith("kafka.stream"));

    final HttpClient http = HttpClient.newHttpClient();
    await()
        .atMost(EngineInstances.timeout())
        .untilAsserted(
            () -> assertThat(get(http, httpPort, "/readyz").statusCode()).isEqualTo(200));
    assertThat(get(http, httpPort, "/healthz").statusCode()).isEqualTo(200);
    final HttpResponse<String> metrics = get(http, httpPort, "/metrics");
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.body())
        .as("the engine's meters are served by the plugin")
        .contains("quotaflow_engine_records_read");

    final int metricsPort = command.metricsAddress().orElseThrow().getPort();
    final HttpResponse<String> plain = get(http, metricsPort, "/metrics");
    assertThat(plain.statusCode()).isEqualTo(200);
    assertThat(plain.body())
        .as("the same meters over plain HTTP on metrics.port, the JVM's included")
        .contains("quotaflow_engine_records_read")
        .contains("quotaflow_engine_running 1.0")
        .contains("jvm_memory_used_bytes");

    command.stop();

    assertThat(exit.get()).isZero();
    assertThat(command.metricsAddress()).as("the endpoint stops with the engine").isEmpty();
  }

  private static HttpResponse<String> get(final HttpClient http, final int port, final String path)
      throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static int freePort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
