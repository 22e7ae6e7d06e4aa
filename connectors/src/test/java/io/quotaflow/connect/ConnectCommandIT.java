package io.quotaflow.connect;

import static io.quotaflow.fixtures.KubeObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.fixtures.MockCluster;
import io.quotaflow.fixtures.TopicReader;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodState;
import io.quotaflow.topics.TopicCatalogue;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

@ExtendWith(EmbeddedKafkaExtension.class)
class ConnectCommandIT {

  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;

  @Test
  void connectPublishesAClusterNamedByAKubeconfigContextServesItsMetersAndStopsCleanly(
      final EmbeddedKafkaBroker broker) throws IOException, InterruptedException {
    try (MockCluster mock = MockCluster.start("east")) {
      final String prefix = "c" + UUID.randomUUID().toString().substring(0, 8) + ".";
      final String namespace = MockCluster.uniqueNamespace("connect");
      mock.client().resource(pod(namespace, "web-1").quota("team-a").build()).create();
      final Path kubeconfig = ConnectProcess.kubeconfig(mock, dir);
      final ConnectCommand command =
          new ConnectCommand(
              Map.of("QUOTAFLOW_TOPIC_PREFIX", prefix, "QUOTAFLOW_METRICS_PORT", "0"),
              new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));

      final CompletableFuture<Integer> exit =
          CompletableFuture.supplyAsync(
              () ->
                  new CommandLine(command)
                      .execute(
                          "--bootstrap-servers",
                          broker.bootstrapServers(),
                          "--kubeconfig",
                          kubeconfig.toString(),
                          "--cluster",
                          "east=mock-context",
                          "--dry-run"));

      final TopicCatalogue topics = TopicCatalogue.withPrefix(prefix);
      await().atMost(WAIT).until(() -> topicsExist(broker, topics));
      try (TopicReader<PodKey, PodState> pods = new TopicReader<>(broker, topics.pods())) {
        await()
            .atMost(WAIT)
            .untilAsserted(
                () ->
                    assertThat(pods.read(key -> key.getNamespace().equals(namespace)))
                        .singleElement()
                        .satisfies(
                            entry -> assertThat(entry.key().getCluster()).isEqualTo("east")));
      }
      final int port = command.metricsAddress().orElseThrow().getPort();
      final HttpResponse<String> scrape =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(scrape.statusCode()).isEqualTo(200);
      assertThat(scrape.body())
          .contains("quotaflow_source_records_written_total{cluster=\"east\"")
          .contains("jvm_memory_used_bytes")
          .contains("kafka_producer_record_send_total")
          .contains("kafka_consumer_");

      command.requestStop();

      assertThat(exit).succeedsWithin(WAIT).isEqualTo(0);
      assertThat(command.metricsAddress()).as("the endpoint stops with the connectors").isEmpty();
    }
  }

  private static boolean topicsExist(final EmbeddedKafkaBroker broker, final TopicCatalogue topics)
      throws Exception {
    try (var admin =
        org.apache.kafka.clients.admin.Admin.create(
            Map.<String, Object>of("bootstrap.servers", broker.bootstrapServers()))) {
      return admin.listTopics().names().get().contains(topics.evictionResults().name());
    }
  }
}
