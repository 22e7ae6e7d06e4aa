package io.quotaflow.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.cluster.ClientLoop;
import io.quotaflow.engine.liveness.Heartbeats;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Issue 40.11: in the connectors process {@code /healthz} answers 503 naming a loop (the eviction
 * executor's, the status writer's: a {@link ClientLoop}) silent longer than its allowed silence, so
 * the liveness probe restarts a wedged process; the loop here beats every round as the executor
 * does, then blocks on a latch as a call that never returns would. An ended loop is no longer
 * watched.
 */
class WedgedConnectorLoopTest {

  private static final Duration ALLOWED = Duration.ofMillis(300);

  /** A loop that beats every 10 ms, idle, until {@code wedge} blocks it on {@code release}. */
  private static final class Loop extends ClientLoop {
    final AtomicBoolean wedge = new AtomicBoolean();
    final CountDownLatch release = new CountDownLatch(1);

    Loop() {
      super("eviction executor");
    }

    @Override
    protected void loop() throws InterruptedException {
      while (running()) {
        beat();
        if (wedge.get()) {
          release.await();
        }
        Thread.sleep(10);
      }
    }

    @Override
    protected void wakeUp() {
      release.countDown();
    }

    @Override
    protected void closeClients() {}
  }

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void aLoopBlockedOnALatchTurnsHealthzTo503WithinItsAllowedSilence() throws Exception {
    final Heartbeats loops = new Heartbeats(Clock.systemUTC());
    try (MetricsEndpoint endpoint =
            MetricsEndpoint.start(0, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        Loop loop = new Loop()) {
      endpoint.heartbeats(loops);
      loop.watchedBy(loops, ALLOWED);
      loop.start();
      await()
          .during(Duration.ofMillis(2 * ALLOWED.toMillis()))
          .atMost(Duration.ofSeconds(5))
          .until(() -> get(endpoint, "/healthz").statusCode() == 200);

      loop.wedge.set(true);
      final long wedgedAt = System.nanoTime();
      await()
          .atMost(Duration.ofSeconds(5))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> get(endpoint, "/healthz").statusCode() == 503);
      final Duration toFail = Duration.ofNanos(System.nanoTime() - wedgedAt);

      assertThat(get(endpoint, "/healthz").body())
          .contains("the eviction executor silent for", "allowed 300 ms");
      assertThat(toFail).isLessThan(ALLOWED.plusSeconds(1));

      loop.close();
      assertThat(loops.names()).as("an ended loop is no longer watched").isEmpty();
      assertThat(get(endpoint, "/healthz").statusCode()).isEqualTo(200);
    }
  }

  private HttpResponse<String> get(MetricsEndpoint endpoint, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + endpoint.address().getPort() + path))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
