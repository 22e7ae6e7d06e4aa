package io.quotaflow.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.engine.Engine;
import io.quotaflow.fixtures.RunningSystem;
import io.quotaflow.local.DemoClusters;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every metric the Grafana dashboard and the Prometheus alerts of {@code deploy/observability} name
 * is exported by a running quotaflow: the engine (its plain-HTTP metrics port), the admission
 * plugin ({@code /metrics}) and the connectors (their metrics port), scraped after the events that
 * create the counters: an eviction, a denied pod, a dead letter and an answer from a last state.
 */
@Tag("system")
@ExtendWith(EmbeddedKafkaExtension.class)
class DashboardMetricsIT {

  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;

  @Test
  void everyMetricTheDashboardAndTheAlertsNameIsExportedByARunningQuotaflow(
      final EmbeddedKafkaBroker broker) throws Exception {
    final Set<String> named = ObservabilityFiles.metricNames();
    assertThat(named).as("names read from the dashboard and the rules").hasSizeGreaterThan(20);

    try (RunningSystem system = RunningSystem.builder(broker.bootstrapServers(), dir).start()) {
      await()
          .ignoreExceptions()
          .atMost(WAIT)
          .until(() -> system.get(system.pluginUrl() + "/readyz").statusCode() == 200);
      await()
          .ignoreExceptions()
          .atMost(WAIT)
          .until(
              () ->
                  system
                      .connectorsMetrics()
                      .body()
                      .contains(
                          "quotaflow_evictions_results_total{cluster=\"demo\",outcome=\"EVICTED\","
                              + "reason=\"reclaimed-after-delay\"}"));
      assertThat(system.cluster().evicted()).isNotEmpty();

      final HttpResponse<String> denied =
          system.postToPlugin("/clusters/" + DemoClusters.NAME + "/admission/pods", hugePod());
      assertThat(denied.body()).contains("\"allowed\":false");

      sendGarbage(broker, system.topicPrefix() + "pods.v1");
      await()
          .ignoreExceptions()
          .atMost(WAIT)
          .until(
              () ->
                  system
                      .engineMetrics()
                      .body()
                      .contains("quotaflow_engine_records_rejected_total"));

      answerFromALastState(system);

      // Gauges of a cluster leave with its task and come back once it is computed again: a
      // rebalance that follows the stream thread's return may take them away for a moment.
      await()
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                final Set<String> exported = new TreeSet<>();
                exported.addAll(names(system.engineMetrics()));
                exported.addAll(names(system.pluginMetrics()));
                exported.addAll(names(system.connectorsMetrics()));
                assertThat(exported)
                    .as("every name the dashboard and the alerts read")
                    .containsAll(named);
              });
      assertThat(system.engineMetrics().body())
          .as("per-group gauges, as Koordinator's elastic_quota_status")
          .contains(
              "quotaflow_elastic_quota_status{cluster=\"demo\",field=\"runtime\",is_parent=\"false\","
                  + "name=\"research-vision\",parent=\"research\",resource=\"nvidia.com/gpu\"}");
    }
  }

  /**
   * Takes the engine's only stream thread away, so that no instance holds the demo cluster, asks
   * the query API (answered from the last state), and gives the thread back.
   */
  private static void answerFromALastState(final RunningSystem system) {
    final KafkaStreams streams = system.engine().map(Engine::streams).orElseThrow();
    assertThat(streams.removeStreamThread()).isPresent();
    try {
      await()
          .ignoreExceptions()
          .atMost(WAIT)
          .until(
              () ->
                  system
                      .get(system.pluginUrl() + "/api/v1/clusters/" + DemoClusters.NAME + "/quotas")
                      .body()
                      .contains("\"staleness\""));
    } finally {
      streams.addStreamThread();
    }
    await()
        .ignoreExceptions()
        .atMost(WAIT)
        .until(() -> streams.state() == KafkaStreams.State.RUNNING);
  }

  private static Set<String> names(final HttpResponse<String> scrape) {
    assertThat(scrape.statusCode()).isEqualTo(200);
    final Set<String> names = new TreeSet<>();
    scrape
        .body()
        .lines()
        .filter(line -> !line.isBlank() && !line.startsWith("#"))
        .forEach(line -> names.add(line.split("[{ ]", 2)[0]));
    return names;
  }

  private static void sendGarbage(final EmbeddedKafkaBroker broker, final String topic)
      throws Exception {
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(
            Map.<String, Object>of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
            new ByteArraySerializer(),
            new ByteArraySerializer())) {
      producer
          .send(
              new ProducerRecord<>(
                  topic,
                  "not a key".getBytes(StandardCharsets.UTF_8),
                  "not a pod".getBytes(StandardCharsets.UTF_8)))
          .get();
    }
  }

  /** A pod asking for more GPUs than the whole demo cluster has: the webhook denies it. */
  private static String hugePod() {
    return """
        {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
         "request": {"uid": "u-1", "operation": "CREATE",
           "kind": {"group": "", "version": "v1", "kind": "Pod"},
           "resource": {"group": "", "version": "v1", "resource": "pods"},
           "namespace": "research-vision", "name": "huge",
           "object": {"apiVersion": "v1", "kind": "Pod",
             "metadata": {"name": "huge", "namespace": "research-vision",
               "labels": {"quota.scheduling.koordinator.sh/name": "research-vision"}},
             "spec": {"containers": [{"name": "train", "image": "train",
               "resources": {"requests": {"nvidia.com/gpu": "100"}}}]}}}}
        """;
  }
}
