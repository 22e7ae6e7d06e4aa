package io.quotaflow.admission.http;

import static io.quotaflow.admission.http.Reviews.createPod;
import static io.quotaflow.admission.http.Reviews.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.engine.Engine;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The plugin beside real engines on the in-process broker: inputs in, the engine computes, the
 * webhook answers from the interactive stores; with two instances, each answers for every cluster
 * by forwarding to the owner.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class AdmissionEngineIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  private final String id = UUID.randomUUID().toString().substring(0, 8);
  private final TopicCatalogue topics = TopicCatalogue.withPrefix("adm-" + id + ".");
  private final HttpClient http = HttpClient.newHttpClient();
  private final List<AutoCloseable> opened = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (int i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
  }

  @Test
  void theWebhookDeniesAPodThatDoesNotFitAndAdmitsOneThatFits(EmbeddedKafkaBroker broker)
      throws Exception {
    final int port = freePort();
    final AdmissionServer plugin = startInstance(broker, port, false);
    sendCluster(broker, "east");
    awaitComputed(port, "east");

    // With the pod counted team-a may borrow up to its max of 6 cores: its own request (1 core,
    // from its runtime record) plus the pod's.
    final JsonNode tooBig = review(port, "east", createPod("u1", pod("alpha", "big").cpu("5001m")));
    final JsonNode fits = review(port, "east", createPod("u2", pod("alpha", "a-2").cpu("5000m")));

    assertThat(tooBig.get("allowed").asBoolean()).isFalse();
    assertThat(tooBig.get("status").get("message").asText())
        .contains("group team-a cpu: used 1000 + in-flight 0 + request 5001 > runtime 6000");
    assertThat(fits.get("allowed").asBoolean()).isTrue();
    assertThat(plugin.reservations().of("east").held()).isEqualTo(1);

    // The admitted pod is created and bound: once the engine counts it, its reservation goes.
    try (KafkaProducer<byte[], byte[]> producer = producer(broker)) {
      send(producer, podRecord("east", "alpha", "a-2", 5_000, true));
    }
    await()
        .atMost(TIMEOUT)
        .untilAsserted(() -> assertThat(plugin.reservations().of("east").held()).isZero());
    final JsonNode after = review(port, "east", createPod("u3", pod("alpha", "a-3").cpu("1m")));
    assertThat(after.get("allowed").asBoolean()).isFalse();
  }

  @Test
  void theWhatIfCountsThePendingPodsOfAGroupWhoseRequestSitsAtItsFloor(EmbeddedKafkaBroker broker)
      throws Exception {
    final int port = freePort();
    startInstance(broker, port, false);
    sendDepartment(broker, "south");
    awaitDepartment(port, "south");

    // team (no lending, min 20) asks 10 running + 10 pending = its floor of 20, and dept gets
    // what its children ask: 20 + mate's 10 (capped at its max; mate holds 20). With a 5-core pod
    // team asks 25 and dept gets 35, room for dept's used 30 + 5. Had team's used (10) stood in
    // for its own request, team would still ask 20, dept would stay at 30, and the pod be denied.
    final JsonNode answer =
        review(port, "south", createPod("s1", pod("alpha", "five").cpu("5000m")));

    assertThat(answer.get("allowed").asBoolean()).as(answer.toString()).isTrue();
    // dept stays bounded by its max of 50 cores.
    final JsonNode tooBig =
        review(port, "south", createPod("s2", pod("alpha", "too-big").cpu("15001m")));
    assertThat(tooBig.get("allowed").asBoolean()).as(tooBig.toString()).isFalse();
    assertThat(tooBig.get("status").get("message").asText())
        .contains("group dept cpu: used 30000 + in-flight 5000 + request 15001 > runtime 50000");
  }

  @Test
  void twoInstancesAnswerForEveryClusterByForwardingToTheOwner(EmbeddedKafkaBroker broker)
      throws Exception {
    final int firstPort = freePort();
    final int secondPort = freePort();
    final AdmissionServer first = startInstance(broker, firstPort, true);
    final AdmissionServer second = startInstance(broker, secondPort, true);
    sendCluster(broker, "east");
    sendCluster(broker, "west");
    for (final int port : List.of(firstPort, secondPort)) {
      for (final String cluster : List.of("east", "west")) {
        awaitComputed(port, cluster);
      }
    }

    int uid = 0;
    for (final int port : List.of(firstPort, secondPort)) {
      for (final String cluster : List.of("east", "west")) {
        final JsonNode answer =
            review(port, cluster, createPod("u" + uid, pod("alpha", "p" + uid++).cpu("1m")));
        assertThat(answer.get("allowed").asBoolean()).as(answer.toString()).isTrue();
        assertThat(answer.has("warnings")).as(answer.toString()).isFalse();
      }
    }

    // Each cluster's reservations live on its owner alone, and each non-owner forwarded.
    for (final String cluster : List.of("east", "west")) {
      final int onFirst = first.reservations().find(cluster).map(a -> a.held()).orElse(0);
      final int onSecond = second.reservations().find(cluster).map(a -> a.held()).orElse(0);
      assertThat(List.of(onFirst, onSecond)).as(cluster).containsExactlyInAnyOrder(0, 2);
    }
    final String metrics = get(firstPort, "/metrics") + get(secondPort, "/metrics");
    assertThat(metrics).contains("outcome=\"forwarded\"");
  }

  private AdmissionServer startInstance(EmbeddedKafkaBroker broker, int port, boolean named)
      throws IOException {
    final Path stateDir = Files.createTempDirectory("quotaflow-admission-it");
    final EngineConfig.Builder config =
        EngineConfig.builder()
            .set(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers())
            .set(StreamsConfig.APPLICATION_ID_CONFIG, "quotaflow-admission-it-" + id)
            .set(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString())
            .set(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "100")
            .set(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0")
            .set(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), "6000")
            .set(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), "500")
            .set(EngineSettings.TOPIC_PREFIX.key(), topics.prefix())
            .set(EngineSettings.TOPIC_PARTITIONS.key(), "3")
            .set(EngineSettings.SHUTDOWN_TIMEOUT.key(), "10s")
            .set(PluginSettings.PLAIN_HTTP.key(), "true")
            .set(PluginSettings.BIND_ADDRESS.key(), "127.0.0.1")
            .set(PluginSettings.PORT.key(), Integer.toString(port));
    if (named) {
      config.set(StreamsConfig.APPLICATION_SERVER_CONFIG, "127.0.0.1:" + port);
    }
    final EngineConfig engineConfig = config.build();
    final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    final Engine engine = new Engine(engineConfig, registry);
    opened.add(engine);
    engine.provisionTopics();
    engine.start();
    final AdmissionServer plugin = EnginePlugin.start(engineConfig, engine, registry).orElseThrow();
    opened.add(plugin);
    await().atMost(TIMEOUT).until(() -> engine.streams().state() == KafkaStreams.State.RUNNING);
    return plugin;
  }

  /** Cluster {@code name}: 10 cores; team-a (min 4, max 6 cores, no lending) runs a 1-core pod. */
  private void sendCluster(EmbeddedKafkaBroker broker, String cluster) {
    try (KafkaProducer<byte[], byte[]> producer = producer(broker)) {
      send(
          producer,
          new ProducerRecord<>(
              topics.nodes().name(),
              topics
                  .nodes()
                  .keySerializer()
                  .serialize(topics.nodes().name(), new NodeKey(cluster, "node-1")),
              topics
                  .nodes()
                  .valueSerializer()
                  .serialize(
                      topics.nodes().name(),
                      NodeState.newBuilder()
                          .setAllocatable(Map.of("cpu", 10_000L, "memory", 40L << 30))
                          .setReady(true)
                          .setSchedulable(true)
                          .setDeleting(false)
                          .build())));
      send(
          producer,
          quotaRecord(
              cluster,
              "team-a",
              QuotaSpec.newBuilder()
                  .setMin(Map.of("cpu", 4_000L))
                  .setMax(Map.of("cpu", 6_000L))
                  .setAllowLent(false)
                  .setNamespaces(List.of("alpha"))
                  .build()));
      send(producer, podRecord(cluster, "alpha", "a-1", 1_000, true));
    }
  }

  /**
   * Cluster {@code name}: 100 cores; dept (a parent, min and max 50 cores) holds team (no lending,
   * min 20 cores) with a 10-core pod running and one pending, and mate (min and max 10 cores)
   * running 20 cores, over its max.
   */
  private void sendDepartment(EmbeddedKafkaBroker broker, String cluster) {
    try (KafkaProducer<byte[], byte[]> producer = producer(broker)) {
      send(
          producer,
          new ProducerRecord<>(
              topics.nodes().name(),
              topics
                  .nodes()
                  .keySerializer()
                  .serialize(topics.nodes().name(), new NodeKey(cluster, "node-1")),
              topics
                  .nodes()
                  .valueSerializer()
                  .serialize(
                      topics.nodes().name(),
                      NodeState.newBuilder()
                          .setAllocatable(Map.of("cpu", 100_000L))
                          .setReady(true)
                          .setSchedulable(true)
                          .setDeleting(false)
                          .build())));
      send(
          producer,
          quotaRecord(
              cluster,
              "dept",
              QuotaSpec.newBuilder()
                  .setMin(Map.of("cpu", 50_000L))
                  .setMax(Map.of("cpu", 50_000L))
                  .setIsParent(true)
                  .build()));
      send(
          producer,
          quotaRecord(
              cluster,
              "team",
              QuotaSpec.newBuilder()
                  .setParent("dept")
                  .setMin(Map.of("cpu", 20_000L))
                  .setMax(Map.of("cpu", 50_000L))
                  .setAllowLent(false)
                  .setNamespaces(List.of("alpha"))
                  .build()));
      send(
          producer,
          quotaRecord(
              cluster,
              "mate",
              QuotaSpec.newBuilder()
                  .setParent("dept")
                  .setMin(Map.of("cpu", 10_000L))
                  .setMax(Map.of("cpu", 10_000L))
                  .setNamespaces(List.of("beta"))
                  .build()));
      send(producer, podRecord(cluster, "alpha", "running", 10_000, true));
      send(producer, podRecord(cluster, "alpha", "pending", 10_000, false));
      send(producer, podRecord(cluster, "beta", "big", 20_000, true));
    }
  }

  private void awaitDepartment(int port, String cluster) {
    await()
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () -> {
              final JsonNode team = quota(port, cluster, "team");
              assertThat(team.get("pods")).hasSize(2);
              assertThat(team.get("quota").get("runtime").get("cpu").asLong()).isEqualTo(20_000);
              final JsonNode dept = quota(port, cluster, "dept").get("quota");
              assertThat(dept.get("used").get("cpu").asLong()).isEqualTo(30_000);
              assertThat(dept.get("runtime").get("cpu").asLong()).isEqualTo(30_000);
            });
  }

  private JsonNode quota(int port, String cluster, String name) throws IOException {
    final HttpResponse<String> response =
        call(port, "GET", "/api/v1/clusters/" + cluster + "/quotas/" + name, "");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return Json.MAPPER.readTree(response.body());
  }

  private ProducerRecord<byte[], byte[]> quotaRecord(String cluster, String name, QuotaSpec spec) {
    final String topic = topics.quotas().name();
    return new ProducerRecord<>(
        topic,
        topics.quotas().keySerializer().serialize(topic, new QuotaKey(cluster, name)),
        topics.quotas().valueSerializer().serialize(topic, spec));
  }

  private ProducerRecord<byte[], byte[]> podRecord(
      String cluster, String namespace, String name, long milliCpu, boolean bound) {
    final String topic = topics.pods().name();
    final PodState.Builder state =
        PodState.newBuilder()
            .setUid(namespace + "-" + name)
            .setPhase(bound ? PodPhase.RUNNING : PodPhase.PENDING)
            .setRequests(Map.of("cpu", milliCpu))
            .setPreemptible(true)
            .setCreationTime(Instant.parse("2026-03-01T12:00:00Z"));
    if (bound) {
      state.setNodeName("node-1");
    }
    return new ProducerRecord<>(
        topic,
        topics.pods().keySerializer().serialize(topic, new PodKey(cluster, namespace, name)),
        topics.pods().valueSerializer().serialize(topic, state.build()));
  }

  private static KafkaProducer<byte[], byte[]> producer(EmbeddedKafkaBroker broker) {
    return new KafkaProducer<>(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            broker.bootstrapServers(),
            ProducerConfig.ACKS_CONFIG,
            "all"),
        new ByteArraySerializer(),
        new ByteArraySerializer());
  }

  private static void send(
      KafkaProducer<byte[], byte[]> producer, ProducerRecord<byte[], byte[]> record) {
    try {
      producer.send(record).get();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private void awaitComputed(int port, String cluster) {
    await()
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () -> {
              final HttpResponse<String> response =
                  call(port, "GET", "/api/v1/clusters/" + cluster + "/quotas/team-a", "");
              assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
              final JsonNode quota = Json.MAPPER.readTree(response.body()).get("quota");
              assertThat(quota.get("runtime").get("cpu").asLong()).isEqualTo(4_000);
              assertThat(quota.get("used").get("cpu").asLong()).isEqualTo(1_000);
            });
  }

  private JsonNode review(int port, String cluster, String body) throws IOException {
    final HttpResponse<String> response =
        call(port, "POST", "/clusters/" + cluster + "/admission/pods", body);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return Json.MAPPER.readTree(response.body()).get("response");
  }

  private String get(int port, String path) {
    return call(port, "GET", path, "").body();
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
