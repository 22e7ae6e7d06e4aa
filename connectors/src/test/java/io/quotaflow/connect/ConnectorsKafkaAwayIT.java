package io.quotaflow.connect;

import static io.quotaflow.fixtures.KubeObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.fixtures.MockCluster;
import io.quotaflow.fixtures.TopicReader;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodState;
import io.quotaflow.topics.TopicCatalogue;
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
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code quotaflow connect} started while its Kafka is down (issue 26, survive don't exit): it
 * stays up, alive but not ready, retrying the topics with a backoff, and once the broker comes back
 * (same data, same port) it provisions, publishes and turns ready.
 */
@Tag("fault")
class ConnectorsKafkaAwayIT {

  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;

  @Test
  void connectWaitsForAKafkaThatIsDownAtStartAndThenRuns() throws Exception {
    final Path data = Files.createTempDirectory(dir, "broker");
    EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().dataDir(data).build().start();
    final int kafkaPort = broker.port();
    final String bootstrap = broker.bootstrapServers();
    broker.close();
    try (MockCluster mock = MockCluster.start("east")) {
      final String prefix = "away" + UUID.randomUUID().toString().substring(0, 8) + ".";
      final String namespace = MockCluster.uniqueNamespace("away");
      mock.client().resource(pod(namespace, "web-1").quota("team-a").build()).create();
      final Path kubeconfig = ConnectProcess.kubeconfig(mock, dir);
      final ConnectCommand command =
          new ConnectCommand(
              Map.of(
                  "QUOTAFLOW_TOPIC_PREFIX", prefix,
                  "QUOTAFLOW_METRICS_PORT", "0",
                  "QUOTAFLOW_STARTUP_RETRY_BACKOFF", "200ms",
                  "QUOTAFLOW_STARTUP_RETRY_MAX_BACKOFF", "1s",
                  "QUOTAFLOW_KAFKA_DEFAULT_API_TIMEOUT_MS", "2000",
                  "QUOTAFLOW_KAFKA_REQUEST_TIMEOUT_MS", "1500"),
              new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
      final CompletableFuture<Integer> exit =
          CompletableFuture.supplyAsync(
              () ->
                  new CommandLine(command)
                      .execute(
                          "--bootstrap-servers",
                          bootstrap,
                          "--kubeconfig",
                          kubeconfig.toString(),
                          "--cluster",
                          "east=mock-context",
                          "--dry-run"));
      try {
        await().atMost(WAIT).until(() -> command.metricsAddress().isPresent());
        final int port = command.metricsAddress().orElseThrow().getPort();
        await()
            .atMost(WAIT)
            .untilAsserted(
                () -> {
                  final HttpResponse<String> ready = get(port, "/readyz");
                  assertThat(ready.statusCode()).isEqualTo(503);
                  // At least one attempt failed and is being retried.
                  assertThat(ready.body()).contains("have not started", "topics", "attempts");
                });
        assertThat(get(port, "/healthz").statusCode()).as("alive while waiting").isEqualTo(200);
        assertThat(exit).as("the process stays up").isNotDone();

        broker = EmbeddedKafkaBroker.builder().dataDir(data).port(kafkaPort).build().start();

        final TopicCatalogue topics = TopicCatalogue.withPrefix(prefix);
        final EmbeddedKafkaBroker back = broker;
        // Only once they exist: a reader would have the broker create the topic on its own.
        await().atMost(WAIT).ignoreExceptions().until(() -> topicsExist(back, topics));
        try (TopicReader<PodKey, PodState> pods = new TopicReader<>(broker, topics.pods())) {
          await()
              .atMost(WAIT)
              .ignoreExceptions()
              .untilAsserted(
                  () ->
                      assertThat(pods.read(key -> key.getNamespace().equals(namespace)))
                          .isNotEmpty()
                          .allSatisfy(
                              entry -> assertThat(entry.key().getCluster()).isEqualTo("east")));
        }
        await()
            .atMost(WAIT)
            .untilAsserted(() -> assertThat(get(port, "/readyz").statusCode()).isEqualTo(200));
        assertThat(exit).isNotDone();
      } finally {
        command.requestStop();
        assertThat(exit).succeedsWithin(WAIT).isEqualTo(0);
        broker.close();
      }
    }
  }

  private static boolean topicsExist(final EmbeddedKafkaBroker broker, final TopicCatalogue topics)
      throws Exception {
    try (Admin admin =
        Admin.create(Map.<String, Object>of("bootstrap.servers", broker.bootstrapServers()))) {
      return admin
          .listTopics()
          .names()
          .get()
          .containsAll(topics.all().stream().map(topic -> topic.name()).toList());
    }
  }

  private static HttpResponse<String> get(final int port, final String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
            HttpResponse.BodyHandlers.ofString());
  }
}
