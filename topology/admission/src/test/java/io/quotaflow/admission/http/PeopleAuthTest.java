package io.quotaflow.admission.http;

import static io.quotaflow.admission.http.Reviews.createPod;
import static io.quotaflow.admission.http.Reviews.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.admission.http.auth.Access;
import io.quotaflow.admission.http.auth.ApiAuth;
import io.quotaflow.admission.http.auth.Sessions;
import io.quotaflow.admission.http.auth.User;
import io.quotaflow.admission.state.SnapshotClusterState;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 25, point 1, tried as a tenant would: with people authenticated, bob (who may list pods in
 * namespace beta only) sees team-b and its ancestor research, never team-a (namespace alpha), its
 * pod or its denials, in the tree, a group, the rows, the activity, the stream or the what-if; an
 * admin sees everything; no token at all is 401. The API server's answers are a fake here
 * (KubernetesAccessTest asks the fabric8 mock API server).
 */
class PeopleAuthTest {

  private static final String ADMIN = "admin-token";
  private static final String BOB = "beta-token";
  private static final String TREE = "/api/v1/clusters/east/quotas";

  /** admin may do everything; bob may list pods in beta, and nothing else. */
  private static final Access FAKE =
      new Access() {
        @Override
        public Optional<User> authenticate(String token) {
          return switch (token) {
            case ADMIN -> Optional.of(new User("admin", List.of("system:masters")));
            case BOB -> Optional.of(new User("bob", List.of("system:authenticated")));
            default -> Optional.empty();
          };
        }

        @Override
        public boolean allowed(
            User user, String verb, String group, String resource, String namespace) {
          return user.name().equals("admin")
              || (verb.equals("list") && resource.equals("pods") && namespace.equals("beta"));
        }
      };

  private static AdmissionServer server;
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeAll
  static void start() {
    final SnapshotClusterState state = TestClusters.state();
    server =
        AdmissionServer.builder(PluginConfig.plainHttpOnLoopback(0), state)
            .auth(ApiAuth.with(FAKE))
            .build()
            .start();
    server.refreshLastState();
    // A denial of team-a, which bob must not see in the activity.
    send(
        "POST",
        "/clusters/east/admission/pods",
        Optional.empty(),
        Map.of(),
        createPod("d", pod("alpha", "huge").quota("team-a").cpu("50")));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void noTokenIs401WithAChallenge() {
    final HttpResponse<String> response = get(TREE, Optional.empty());

    assertThat(response.statusCode()).isEqualTo(401);
    assertThat(response.headers().firstValue("WWW-Authenticate"))
        .contains("Bearer realm=\"quotaflow\"");
    assertThat(get(TREE, Optional.of("forged")).statusCode()).isEqualTo(401);
  }

  @Test
  void aTenantSeesItsGroupAndItsAncestorsOnly() {
    final HttpResponse<String> tree = get(TREE, Optional.of(BOB));

    assertThat(tree.statusCode()).isEqualTo(200);
    assertThat(tree.body()).contains("\"team-b\"").contains("\"research\"");
    assertThat(tree.body())
        .doesNotContain("team-a")
        .doesNotContain("\"ops\"")
        .doesNotContain("a-1");
  }

  /**
   * Issue 39, point 9: what a tenant may not see answers exactly as what does not exist, so that no
   * answer tells it which groups or pods exist beyond its own (an existence oracle).
   */
  @Test
  void aTenantGetsTheSame404ForAnotherNamespacesGroupOrPodAsForOneThatDoesNotExist() {
    assertSameAsMissing(TREE + "/team-a", TREE + "/no-such");
    assertSameAsMissing(
        "/api/v1/clusters/east/view/groups/team-a", "/api/v1/clusters/east/view/groups/no-such");
    assertSameAsMissing(
        TREE + "/team-a/explain?resource=cpu", TREE + "/no-such/explain?resource=cpu");
    // a-1 runs in alpha, which bob may not list; alpha/ghost does not exist.
    assertSameAsMissing(
        "/api/v1/clusters/east/pods/alpha/a-1/explain",
        "/api/v1/clusters/east/pods/alpha/ghost/explain");
    assertThat(get(TREE + "/team-b", Optional.of(BOB)).statusCode()).isEqualTo(200);
    assertThat(get(TREE + "/team-a", Optional.of(ADMIN)).statusCode()).isEqualTo(200);
    assertThat(get("/api/v1/clusters/east/pods/alpha/a-1/explain", Optional.of(ADMIN)).statusCode())
        .isEqualTo(200);
  }

  private static void assertSameAsMissing(String hidden, String missing) {
    final HttpResponse<String> seen = get(hidden, Optional.of(BOB));
    final HttpResponse<String> absent = get(missing, Optional.of(BOB));

    assertThat(seen.statusCode()).as(hidden).isEqualTo(404);
    assertThat(absent.statusCode()).as(missing).isEqualTo(404);
    final String name = hidden.contains("/pods/") ? "a-1" : "team-a";
    final String other = missing.contains("/pods/") ? "ghost" : "no-such";
    assertThat(seen.body().replace(name, other)).as(hidden).isEqualTo(absent.body());
  }

  @Test
  void theWebViewsRowsAndActivityShowNoForeignGroupOrPod() {
    final HttpResponse<String> rows =
        get("/api/v1/clusters/east/view/rows?parent=research", Optional.of(BOB));
    final HttpResponse<String> activity =
        get("/api/v1/clusters/east/view/activity", Optional.of(BOB));
    final HttpResponse<String> adminActivity =
        get("/api/v1/clusters/east/view/activity", Optional.of(ADMIN));

    assertThat(rows.statusCode()).isEqualTo(200);
    assertThat(rows.body()).contains("team-b").doesNotContain("team-a");
    assertThat(activity.body()).doesNotContain("huge");
    assertThat(adminActivity.body()).contains("huge");
  }

  @Test
  void theStreamAndTheWhatIfAreForThoseWhoSeeAndEditEverything() throws Exception {
    final String whatIf = "{\"groups\": [{\"name\": \"team-b\", \"max\": {\"cpu\": \"9\"}}]}";

    assertThat(stream(BOB)).isEqualTo(403);
    assertThat(stream(ADMIN)).isEqualTo(200);
    assertThat(
            send("POST", "/api/v1/clusters/east/what-if", Optional.of(BOB), Map.of(), whatIf)
                .statusCode())
        .isEqualTo(403);
    assertThat(
            send("POST", "/api/v1/clusters/east/what-if", Optional.of(ADMIN), Map.of(), whatIf)
                .statusCode())
        .isEqualTo(200);
  }

  @Test
  void anAdminSeesEveryGroupAndPod() {
    final HttpResponse<String> tree = get(TREE, Optional.of(ADMIN));
    final HttpResponse<String> teamA = get(TREE + "/team-a", Optional.of(ADMIN));

    assertThat(tree.body()).contains("\"team-a\"").contains("\"ops\"");
    assertThat(teamA.body()).contains("a-1");
  }

  @Test
  void theWebViewSignsInWithAnHttpOnlyCookie() {
    final HttpResponse<String> signIn =
        send("POST", Sessions.PATH, Optional.empty(), Map.of(), "{\"token\": \"" + BOB + "\"}");
    final String cookie = signIn.headers().firstValue("Set-Cookie").orElseThrow();

    assertThat(signIn.statusCode()).isEqualTo(200);
    assertThat(signIn.body()).contains("\"user\":\"bob\"").contains("\"seesAll\":false");
    assertThat(cookie).contains("HttpOnly").contains("SameSite=Strict");
    final HttpResponse<String> tree =
        send("GET", TREE, Optional.empty(), Map.of("Cookie", cookie.split(";")[0]), "");
    assertThat(tree.statusCode()).isEqualTo(200);
    assertThat(tree.body()).contains("team-b").doesNotContain("team-a");
    assertThat(
            send("POST", Sessions.PATH, Optional.empty(), Map.of(), "{\"token\": \"forged\"}")
                .statusCode())
        .isEqualTo(401);
  }

  private static int stream(String token) throws Exception {
    final HttpRequest request =
        HttpRequest.newBuilder(url("/api/v1/clusters/east/view/events"))
            .timeout(Duration.ofSeconds(5))
            .header("Authorization", "Bearer " + token)
            .build();
    final HttpResponse<InputStream> response =
        CLIENT.send(request, HttpResponse.BodyHandlers.ofInputStream());
    response.body().close();
    return response.statusCode();
  }

  private static HttpResponse<String> get(String path, Optional<String> token) {
    return send("GET", path, token, Map.of(), "");
  }

  private static HttpResponse<String> send(
      String method,
      String path,
      Optional<String> token,
      Map<String, String> headers,
      String body) {
    final HttpRequest.Builder request =
        HttpRequest.newBuilder(url(path))
            .timeout(Duration.ofSeconds(5))
            .header("Content-Type", "application/json")
            .method(
                method,
                body.isEmpty()
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    token.ifPresent(t -> request.header("Authorization", "Bearer " + t));
    headers.forEach(request::header);
    try {
      return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      throw new AssertionError(method + " " + path, e);
    }
  }

  private static URI url(String path) {
    return URI.create("http://127.0.0.1:" + server.port() + path);
  }
}
