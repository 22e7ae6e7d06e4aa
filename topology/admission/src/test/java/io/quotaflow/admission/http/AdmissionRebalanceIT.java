package io.quotaflow.admission.http;

import static io.quotaflow.admission.http.Reviews.createPod;
import static io.quotaflow.admission.http.Reviews.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.admission.http.state.LastKnownState;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.engine.Engine;
import io.quotaflow.engine.EngineInstances;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.schemas.NodeKey;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodPhase;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.topics.TopicCatalogue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A second engine instance joins the application of one that answers admissions: during the
 * rebalance the first keeps answering from the last state it read, as before (never by the failure
 * policy), stating its staleness, and stays ready.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class AdmissionRebalanceIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  private static final String CLUSTER = "east";
  private final HttpClient http = HttpClient.newHttpClient();

  /** What the first instance answered at one moment of the rebalance. */
  private record Observed(
      KafkaStreams.State before, JsonNode fits, JsonNode tooBig, int ready, String readyBody) {}

  @Test
  void duringARebalanceAdmissionsAreAnsweredFromTheLastStateAndTheInstanceStaysReady(
      EmbeddedKafkaBroker broker) throws Exception {
    final List<AutoCloseable> opened = new ArrayList<>();
    try (EngineInstances instances = new EngineInstances(broker.bootstrapServers(), Map.of())) {
      final int firstPort = freePort();
      final Engine first = engine(instances, firstPort, opened);
      final AdmissionServer plugin = plugin(instances, first, firstPort, opened);
      await().atMost(TIMEOUT).until(() -> EngineInstances.running(first));
      sendCluster(broker, instances.topics());
      awaitComputed(firstPort);
      plugin.refreshLastState();
      assertThat(plugin.lastKnownState().recall(CLUSTER)).isInstanceOf(LastKnownState.Usable.class);
      final JsonNode live = review(firstPort, "live", "1m");
      assertThat(live.get("allowed").asBoolean()).as(live.toString()).isTrue();
      assertThat(live.has("warnings")).isFalse();

      final int secondPort = freePort();
      final Engine second = engine(instances, secondPort, opened);
      plugin(instances, second, secondPort, opened);
      final List<Observed> seen = new ArrayList<>();
      final Instant deadline = Instant.now().plus(TIMEOUT);
      int settledRounds = 0;
      // Until both instances run again after first was seen rebalancing, and a few rounds more.
      while (settledRounds < 20 && Instant.now().isBefore(deadline)) {
        final KafkaStreams.State before = first.streams().state();
        final int n = seen.size();
        final JsonNode fits = review(firstPort, "fits-" + n, "1m");
        final JsonNode tooBig = review(firstPort, "big-" + n, "5001m");
        final HttpResponse<String> ready = call(firstPort, "GET", "/readyz", "");
        seen.add(new Observed(before, fits, tooBig, ready.statusCode(), ready.body()));
        final boolean rebalanced =
            seen.stream().anyMatch(o -> o.before() == KafkaStreams.State.REBALANCING);
        if (rebalanced && EngineInstances.running(first) && EngineInstances.running(second)) {
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
      assertThat(call(firstPort, "GET", "/metrics", "").body())
          .contains("quotaflow_admission_stale_answers_total{cluster=\"east\"")
          .contains("quotaflow_admission_state_age_seconds{cluster=\"east\"}");
    } finally {
      for (int i = opened.size() - 1; i >= 0; i--) {
        opened.get(i).close();
      }
    }
  }

  private static Engine engine(EngineInstances instances, int port, List<AutoCloseable> opened) {
    final EngineConfig config = config(instances, port);
    final Engine engine = new Engine(config, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    opened.add(engine);
    engine.provisionTopics();
    engine.start();
    return engine;
  }

  private static AdmissionServer plugin(
      EngineInstances instances, Engine engine, int port, List<AutoCloseable> opened) {
    final AdmissionServer plugin =
        EnginePlugin.start(
                config(instances, port),
                engine,
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
            .orElseThrow();
    opened.add(plugin);
    return plugin;
  }

  private static EngineConfig config(EngineInstances instances, int port) {
    return instances.config(
        EngineInstances.stateDir(),
        Map.of(
            StreamsConfig.APPLICATION_SERVER_CONFIG,
            "127.0.0.1:" + port,
            PluginSettings.PLAIN_HTTP.key(),
            "true",
            PluginSettings.BIND_ADDRESS.key(),
            "127.0.0.1",
            PluginSettings.PORT.key(),
            Integer.toString(port)));
  }

  /** Cluster east: 10 cores; team-a (min 4, max 6 cores, no lending) runs a 1-core pod. */
  private static void sendCluster(EmbeddedKafkaBroker broker, TopicCatalogue topics) {
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                broker.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG,
                "all"),
            new ByteArraySerializer(),
            new ByteArraySerializer())) {
      final String nodes = topics.nodes().name();
      send(
          producer,
          new ProducerRecord<>(
              nodes,
              topics.nodes().keySerializer().serialize(nodes, new NodeKey(CLUSTER, "node-1")),
              topics
                  .nodes()
                  .valueSerializer()
                  .serialize(
                      nodes,
                      NodeState.newBuilder()
                          .setAllocatable(Map.of("cpu", 10_000L))
                          .setReady(true)
                          .setSchedulable(true)
                          .setDeleting(false)
                          .build())));
      final String quotas = topics.quotas().name();
      send(
          producer,
          new ProducerRecord<>(
              quotas,
              topics.quotas().keySerializer().serialize(quotas, new QuotaKey(CLUSTER, "team-a")),
              topics
                  .quotas()
                  .valueSerializer()
                  .serialize(
                      quotas,
                      QuotaSpec.newBuilder()
                          .setMin(Map.of("cpu", 4_000L))
                          .setMax(Map.of("cpu", 6_000L))
                          .setAllowLent(false)
                          .setNamespaces(List.of("alpha"))
                          .build())));
      final String pods = topics.pods().name();
      send(
          producer,
          new ProducerRecord<>(
              pods,
              topics.pods().keySerializer().serialize(pods, new PodKey(CLUSTER, "alpha", "a-1")),
              topics
                  .pods()
                  .valueSerializer()
                  .serialize(
                      pods,
                      PodState.newBuilder()
                          .setUid("alpha-a-1")
                          .setPhase(PodPhase.RUNNING)
                          .setRequests(Map.of("cpu", 1_000L))
                          .setPreemptible(true)
                          .setCreationTime(Instant.parse("2026-03-01T12:00:00Z"))
                          .setNodeName("node-1")
                          .build())));
    }
  }

  private static void send(
      KafkaProducer<byte[], byte[]> producer, ProducerRecord<byte[], byte[]> record) {
    try {
      producer.send(record).get();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private void awaitComputed(int port) {
    await()
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () -> {
              final HttpResponse<String> response =
                  call(port, "GET", "/api/v1/clusters/" + CLUSTER + "/quotas/team-a", "");
              assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
              final JsonNode quota = Json.MAPPER.readTree(response.body()).get("quota");
              assertThat(quota.get("runtime").get("cpu").asLong()).isEqualTo(4_000);
              assertThat(quota.get("used").get("cpu").asLong()).isEqualTo(1_000);
            });
  }

  /** A pod of team-a asking {@code cpu}, created; room is 5 cores. */
  private JsonNode review(int port, String name, String cpu) throws IOException {
    final HttpResponse<String> response =
        call(
            port,
            "POST",
            "/clusters/" + CLUSTER + "/admission/pods",
            createPod(name, pod("alpha", name).cpu(cpu)));
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return Json.MAPPER.readTree(response.body()).get("response");
  }

  private HttpResponse<String> call(int port, String method, String path, String body) {
    try {
      return http.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
              .timeout(Duration.ofSeconds(10))
              .method(
                  method,
                  body.isEmpty()
                      ? HttpRequest.BodyPublishers.noBody()
                      : HttpRequest.BodyPublishers.ofString(body))
              .build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
