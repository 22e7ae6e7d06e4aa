package io.quotaflow.admission.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.endpoint.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Plain HTTP to an admission plugin on {@code 127.0.0.1}, as the API server and a user of the query
 * API call it: for the integration tests that start the plugin beside an engine.
 */
final class PluginClient {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final int port;

  PluginClient(int port) {
    this.port = port;
  }

  /** A port nothing listens on now. */
  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  int port() {
    return port;
  }

  /** The pod webhook's {@code response} to the AdmissionReview {@code body}; fails unless 200. */
  JsonNode review(String cluster, String body) throws IOException {
    final HttpResponse<String> response =
        call("POST", "/clusters/" + cluster + "/admission/pods", body);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return Json.MAPPER.readTree(response.body()).get("response");
  }

  /** The query API's answer for quota group {@code name}; fails unless 200. */
  JsonNode quota(String cluster, String name) throws IOException {
    final HttpResponse<String> response =
        call("GET", "/api/v1/clusters/" + cluster + "/quotas/" + name, "");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return Json.MAPPER.readTree(response.body());
  }

  /** The body of a GET of {@code path}, whatever its status. */
  String get(String path) {
    return call("GET", path, "").body();
  }

  HttpResponse<String> call(String method, String path, String body) {
    try {
      return HTTP.send(
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
}
