package io.quotaflow.admission.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.admission.http.auth.Access;
import io.quotaflow.admission.http.auth.ApiAuth;
import io.quotaflow.admission.http.auth.Sessions;
import io.quotaflow.admission.http.auth.User;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 39, points 6 and 10, door by door: a rate per client on /api/ (429), tokens too long never
 * asked about, and people's POSTs only as JSON from this server's own pages.
 */
class PeopleDoorsTest {

  private static final String ADMIN = "admin-token";
  private static final String WHAT_IF = "/api/v1/clusters/east/what-if";
  private static final String EDIT =
      "{\"groups\": [{\"name\": \"team-b\", \"max\": {\"cpu\": \"9\"}}]}";

  private final AtomicInteger asked = new AtomicInteger();
  private final Access apiServer =
      new Access() {
        @Override
        public Optional<User> authenticate(String token) {
          asked.incrementAndGet();
          return token.equals(ADMIN)
              ? Optional.of(new User("admin", List.of("system:masters")))
              : Optional.empty();
        }

        @Override
        public boolean allowed(
            User user, String verb, String group, String resource, String namespace) {
          return true;
        }
      };
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private AdmissionServer server;

  @BeforeEach
  void start() {
    server =
        AdmissionServer.builder(PluginConfig.plainHttpOnLoopback(0), TestClusters.state())
            .auth(ApiAuth.with(apiServer))
            .build()
            .start();
    server.refreshLastState();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void oneClientIsAnswered429BeyondItsRateWhileTheWebhooksAreNotLimited() {
    int limited = 0;
    String retryAfter = "";
    for (int i = 0; i < 200; i++) {
      final HttpResponse<String> response =
          send("GET", "/api/v1/clusters/east/quotas", Map.of("Authorization", "Bearer x"), "");
      if (response.statusCode() == 429) {
        limited++;
        retryAfter = response.headers().firstValue("Retry-After").orElse("");
      }
    }
    assertThat(limited).as("requests answered 429 of 200 in a burst").isPositive();
    assertThat(retryAfter).isEqualTo("1");
    for (int i = 0; i < 100; i++) {
      assertThat(
              send(
                      "POST",
                      "/clusters/east/admission/pods",
                      Map.of(),
                      Reviews.createPod(
                          "u" + i, Reviews.pod("beta", "p" + i).quota("team-b").cpu("1m")))
                  .statusCode())
          .isEqualTo(200);
    }
  }

  @Test
  void aTokenLongerThanTheCapIsRefusedWithoutAskingTheApiServer() {
    // One byte over the default cap (ApiAuth.DEFAULT_MAX_TOKEN_BYTES).
    final String huge = "a".repeat(4_097);

    final HttpResponse<String> response =
        send("POST", Sessions.PATH, Map.of(), "{\"token\": \"" + huge + "\"}");

    assertThat(response.statusCode()).isEqualTo(401);
    assertThat(asked.get()).as("TokenReviews asked").isZero();
  }

  @Test
  void aPostToApiMustBeJsonFromThisServersOwnPages() {
    final String self = "http://127.0.0.1:" + server.port();
    final String cookie = ApiAuth.COOKIE + "=" + ADMIN;

    // A form another site's page posts: not JSON.
    assertThat(
            send(
                    "POST",
                    Sessions.PATH,
                    Map.of("Content-Type", "text/plain", "Origin", "https://evil.example"),
                    "{\"token\": \"" + ADMIN + "\"}")
                .statusCode())
        .isEqualTo(415);
    // JSON from another origin.
    assertThat(
            send(
                    "POST",
                    Sessions.PATH,
                    Map.of("Content-Type", "application/json", "Origin", "https://evil.example"),
                    "{\"token\": \"" + ADMIN + "\"}")
                .statusCode())
        .isEqualTo(403);
    // The session cookie alone, without an Origin.
    assertThat(
            send(
                    "POST",
                    WHAT_IF,
                    Map.of("Content-Type", "application/json", "Cookie", cookie),
                    EDIT)
                .statusCode())
        .isEqualTo(403);
    // The web view's own page, and a program with a bearer token, pass.
    assertThat(
            send(
                    "POST",
                    WHAT_IF,
                    Map.of("Content-Type", "application/json", "Cookie", cookie, "Origin", self),
                    EDIT)
                .statusCode())
        .isEqualTo(200);
    assertThat(
            send(
                    "POST",
                    WHAT_IF,
                    Map.of(
                        "Content-Type",
                        "application/json; charset=utf-8",
                        "Authorization",
                        "Bearer " + ADMIN),
                    EDIT)
                .statusCode())
        .isEqualTo(200);
  }

  private HttpResponse<String> send(
      String method, String path, Map<String, String> headers, String body) {
    final HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
            .timeout(Duration.ofSeconds(5))
            .method(
                method,
                body.isEmpty()
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (!headers.containsKey("Content-Type") && !body.isEmpty()) {
      request.header("Content-Type", "application/json");
    }
    headers.forEach(request::header);
    try {
      return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      throw new AssertionError(method + " " + path, e);
    }
  }
}
