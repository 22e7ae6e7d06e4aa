package io.quotaflow.admission.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.endpoint.Json;
import io.quotaflow.admission.http.limits.ServerLimits;
import io.quotaflow.admission.machine.FailurePolicy;
import io.quotaflow.admission.state.ClusterStateReader;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;

/** An admission server on a free loopback port, with a client for it. Close it after the test. */
public final class Plugin implements AutoCloseable {

  private final AdmissionServer server;
  private final HttpClient client;

  public Plugin(AdmissionServer server, HttpClient client) {
    this.server = server;
    this.client = client;
  }

  public static Plugin start(ClusterStateReader reader) {
    return start(PluginConfig.plainHttpOnLoopback(0), reader, Clock.systemUTC());
  }

  /** A plugin that denies what it cannot decide (no state of the cluster at all). */
  public static Plugin startFailClosed(ClusterStateReader reader) {
    return start(
        PluginConfig.plainHttpOnLoopback(0).withFailurePolicy(FailurePolicy.FAIL_CLOSED), reader);
  }

  public static Plugin start(PluginConfig config, ClusterStateReader reader) {
    return start(config, reader, Clock.systemUTC());
  }

  public static Plugin start(PluginConfig config, ClusterStateReader reader, Clock clock) {
    return start(config, ServerLimits.DEFAULTS, reader, clock);
  }

  public static Plugin start(PluginConfig config, ServerLimits limits, ClusterStateReader reader) {
    return start(config, limits, reader, Clock.systemUTC());
  }

  public static Plugin start(
      PluginConfig config, ServerLimits limits, ClusterStateReader reader, Clock clock) {
    final AdmissionServer server =
        AdmissionServer.builder(config, reader)
            .clock(clock)
            .limits(limits)
            .noopEndpoint(true)
            .build()
            .start();
    return new Plugin(
        server, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build());
  }

  public AdmissionServer server() {
    return server;
  }

  public int port() {
    return server.port();
  }

  /** A reply: status, body, and the body as JSON when it is JSON. */
  public record Reply(int status, String body, java.net.http.HttpHeaders headers) {
    public JsonNode json() {
      try {
        return Json.MAPPER.readTree(body);
      } catch (IOException e) {
        throw new AssertionError("not JSON (" + status + "): " + body, e);
      }
    }
  }

  public Reply post(String path, String body) {
    return send("POST", path, body.getBytes(StandardCharsets.UTF_8));
  }

  public Reply post(String path, byte[] body) {
    return send("POST", path, body);
  }

  public Reply get(String path) {
    return send("GET", path, new byte[0]);
  }

  Reply send(String method, String path, byte[] body) {
    final HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + path))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json")
            .method(
                method,
                body.length == 0
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    try {
      final HttpResponse<String> response =
          client.send(request, HttpResponse.BodyHandlers.ofString());
      return new Reply(response.statusCode(), response.body(), response.headers());
    } catch (IOException e) {
      throw new AssertionError("request failed: " + method + " " + path, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  @Override
  public void close() {
    server.close();
  }
}
