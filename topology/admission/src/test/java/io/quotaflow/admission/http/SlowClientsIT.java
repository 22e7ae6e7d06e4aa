package io.quotaflow.admission.http;

import static io.quotaflow.admission.http.Reviews.createPod;
import static io.quotaflow.admission.http.Reviews.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.admission.http.limits.ServerLimits;
import io.quotaflow.admission.http.limits.SlowClientGuard;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 25, point 3, tried as an attacker would: hundreds of connections trickling a byte at a
 * time, some in their headers and some in a body, used to take every worker, so that webhook calls
 * timed out (and the pod webhook's Ignore admitted everything) and {@code /readyz} failed. Now no
 * worker waits for a body, slow requests are closed after {@code admission.request.timeout}, and
 * health has a port of its own: every review is answered within the API server's webhook timeout (2
 * s), {@code /readyz} stays 200, and the trickling connections are closed.
 */
@Tag("fault")
class SlowClientsIT {

  private static final String PODS = "/clusters/east/admission/pods";
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);

  private final List<Socket> sockets = Collections.synchronizedList(new ArrayList<>());
  private final ScheduledExecutorService trickler = Executors.newSingleThreadScheduledExecutor();
  private AdmissionServer server;

  @AfterEach
  void stop() throws IOException {
    trickler.shutdownNow();
    for (final Socket socket : sockets) {
      socket.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void tricklingClientsNeitherDelayTheWebhookNorFailReadiness() throws Exception {
    server =
        AdmissionServer.builder(PluginConfig.plainHttpOnLoopback(0), TestClusters.state())
            .limits(new ServerLimits(REQUEST_TIMEOUT, 1024, OptionalInt.of(0), 4, 10_000, 100))
            .build()
            .start();
    final int port = server.port();
    // 200 connections trickle their headers, 100 a body they announced as 1000 bytes.
    for (int i = 0; i < 300; i++) {
      final Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
      sockets.add(socket);
      final String start =
          i < 200
              ? "POST " + PODS + " HTTP/1.1\r\nHost: x\r\n"
              : "POST "
                  + PODS
                  + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  + "Content-Length: 1000\r\n\r\n{";
      socket.getOutputStream().write(start.getBytes(StandardCharsets.US_ASCII));
    }
    trickler.scheduleWithFixedDelay(this::oneByteEach, 500, 500, TimeUnit.MILLISECONDS);
    Thread.sleep(1_000);

    final List<Long> millis = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      final long started = System.nanoTime();
      final Plugin.Reply reply =
          send(
              port,
              "POST",
              PODS,
              createPod("u" + i, pod("beta", "p" + i).quota("team-b").cpu("1m")));
      millis.add((System.nanoTime() - started) / 1_000_000);
      assertThat(reply.status()).as(reply.body()).isEqualTo(200);
      assertThat(reply.json().get("response").get("allowed").asBoolean()).isTrue();
      Thread.sleep(50);
    }
    assertThat(send(server.healthPort().getAsInt(), "GET", "/readyz", "").status()).isEqualTo(200);
    assertThat(send(server.healthPort().getAsInt(), "GET", PODS, "").status())
        .as("the health port serves nothing else")
        .isEqualTo(404);
    assertThat(send(port, "GET", "/readyz", "").status()).isEqualTo(200);

    Collections.sort(millis);
    final long p99 = millis.get((int) Math.ceil(millis.size() * 0.99) - 1);
    System.out.printf(
        "SlowClientsIT: 50 reviews beside 300 trickling connections: p50 %d ms, p99 %d ms%n",
        millis.get(millis.size() / 2), p99);
    // The figure that matters to the API server: no call reaches its webhook timeout.
    assertThat(p99).as("p99 (ms)").isLessThan(2_000);
    // The tricklers were closed by the plugin: reading gives end of stream (or a 408 first).
    for (final Socket socket : sockets.subList(0, 10)) {
      assertThat(closedByServer(socket)).as("a trickling connection is closed").isTrue();
    }
    assertThat(
            server.registry().find(SlowClientGuard.CLOSED).tag("reason", "slow").counter().count())
        .isGreaterThanOrEqualTo(200);
  }

  @Test
  void aBodyThatDoesNotArriveInTimeIsAnswered408() throws Exception {
    server =
        AdmissionServer.builder(PluginConfig.plainHttpOnLoopback(0), TestClusters.state())
            .limits(new ServerLimits(REQUEST_TIMEOUT, 1024, OptionalInt.empty(), 4, 10_000, 100))
            .build()
            .start();
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      socket.setSoTimeout(10_000);
      final OutputStream out = socket.getOutputStream();
      out.write(
          ("POST " + PODS + " HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"apiVersion\"")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();

      final String answer =
          new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);

      assertThat(answer).startsWith("HTTP/1.1 408").contains("did not arrive within 2000 ms");
    }
  }

  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** A call as the API server makes it, with its webhook timeout. */
  private static Plugin.Reply send(int port, String method, String path, String body)
      throws IOException, InterruptedException {
    final HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(2))
            .header("Content-Type", "application/json")
            .method(
                method,
                body.isEmpty()
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body))
            .build();
    final HttpResponse<String> response =
        CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
    return new Plugin.Reply(response.statusCode(), response.body(), response.headers());
  }

  private void oneByteEach() {
    for (final Socket socket : sockets) {
      try {
        final OutputStream out = socket.getOutputStream();
        out.write('a');
        out.flush();
      } catch (IOException e) {
        // Closed by the plugin: as it should be.
      }
    }
  }

  private static boolean closedByServer(Socket socket) {
    try {
      socket.setSoTimeout(10_000);
      final InputStream in = socket.getInputStream();
      final byte[] buffer = new byte[4096];
      while (in.read(buffer) >= 0) {
        // A 408 may come first; the end of stream follows.
      }
      return true;
    } catch (IOException e) {
      // A reset is a close too.
      return !e.getMessage().contains("Read timed out");
    }
  }
}
