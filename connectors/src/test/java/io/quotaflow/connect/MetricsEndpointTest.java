package io.quotaflow.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MetricsEndpointTest {

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final HttpClient http = HttpClient.newHttpClient();
  private final MetricsEndpoint endpoint = MetricsEndpoint.start(0, registry);

  @AfterEach
  void close() {
    endpoint.close();
  }

  @Test
  void metricsAnswersTheRegistrysMetersInThePrometheusTextFormat() throws Exception {
    Counter.builder("quotaflow.test.records")
        .tag("cluster", "east")
        .register(registry)
        .increment(3);

    final HttpResponse<String> response = get("/metrics");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type"))
        .hasValue("text/plain; version=0.0.4; charset=utf-8");
    assertThat(response.body())
        .contains("# TYPE quotaflow_test_records_total counter")
        .contains("quotaflow_test_records_total{cluster=\"east\"} 3.0");
  }

  @Test
  void healthzAnswersOk() throws Exception {
    final HttpResponse<String> response = get("/healthz");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEqualTo("ok\n");
  }

  /** Issue 26: not ready while the connectors wait for Kafka at start-up; alive all the same. */
  @Test
  void readyzIs503WhileTheReadinessCheckGivesAReason() throws Exception {
    final java.util.concurrent.atomic.AtomicReference<java.util.Optional<String>> problem =
        new java.util.concurrent.atomic.AtomicReference<>(
            java.util.Optional.of("the connectors have not started: Kafka is away"));
    endpoint.readiness(problem::get);

    final HttpResponse<String> waiting = get("/readyz");
    assertThat(waiting.statusCode()).isEqualTo(503);
    assertThat(waiting.body()).contains("Kafka is away");
    assertThat(get("/healthz").statusCode()).isEqualTo(200);

    problem.set(java.util.Optional.empty());
    assertThat(get("/readyz").statusCode()).isEqualTo(200);
  }

  /** Issue 26: readiness says which watch is down, once it has been for 30 s. */
  @Test
  void readyzIs503WhileAWatchHasBeenDownFor30Seconds() throws Exception {
    final java.util.concurrent.atomic.AtomicReference<Double> down =
        new java.util.concurrent.atomic.AtomicReference<>(0.0);
    io.micrometer.core.instrument.Gauge.builder(
            io.quotaflow.source.KubeSource.WATCH_DOWN, down, ref -> ref.get())
        .tag("cluster", "east")
        .tag("kind", "pods")
        .register(registry);

    assertThat(get("/readyz").statusCode()).isEqualTo(200);
    down.set(12.0);
    assertThat(get("/readyz").statusCode()).as("a reconnect is not a problem").isEqualTo(200);
    down.set(45.0);
    final HttpResponse<String> response = get("/readyz");

    assertThat(response.statusCode()).isEqualTo(503);
    assertThat(response.body()).contains("east/pods (45 s)");
    assertThat(get("/healthz").statusCode()).as("still alive").isEqualTo(200);
  }

  @Test
  void anUnknownPathIsNotFoundWithAOneLineMessage() throws Exception {
    for (final String path : new String[] {"/", "/metrics/extra", "/livez"}) {
      final HttpResponse<String> response = get(path);

      assertThat(response.statusCode()).as(path).isEqualTo(404);
      assertThat(response.body()).as(path).endsWith("\n").hasLineCount(1);
    }
  }

  @Test
  void anotherMethodOnMetricsIsNotAllowedAndSaysWhichIs() throws Exception {
    final HttpResponse<String> response =
        http.send(
            request("/metrics").POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(405);
    assertThat(response.headers().firstValue("Allow")).hasValue("GET");
  }

  @Test
  void aHeadRequestIsNotAllowedAndGetsNoBody() throws Exception {
    final HttpResponse<String> response =
        http.send(
            request("/healthz").method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(405);
    assertThat(response.body()).isEmpty();
  }

  @Test
  void closingFreesThePort() throws Exception {
    final int port = endpoint.address().getPort();

    endpoint.close();

    assertThatThrownBy(() -> get("/healthz")).isInstanceOf(ConnectException.class);
    try (MetricsEndpoint again = MetricsEndpoint.start(port, registry)) {
      assertThat(again.address().getPort()).isEqualTo(port);
    }
  }

  @Test
  void aPortInUseIsAnErrorNamingThePort() {
    final int port = endpoint.address().getPort();

    assertThatThrownBy(() -> MetricsEndpoint.start(port, registry))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining(Integer.toString(port));
  }

  private HttpResponse<String> get(final String path) throws IOException, InterruptedException {
    return http.send(request(path).build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpRequest.Builder request(final String path) {
    return HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + endpoint.address().getPort() + path));
  }
}
