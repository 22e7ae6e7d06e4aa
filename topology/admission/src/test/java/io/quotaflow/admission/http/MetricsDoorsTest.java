package io.quotaflow.admission.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.admission.http.auth.Access;
import io.quotaflow.admission.http.auth.ApiAuth;
import io.quotaflow.admission.http.auth.User;
import io.quotaflow.admission.http.limits.ServerLimits;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 39, point 8: the metrics name groups, so the port every kubelet (and every pod, on clusters
 * whose network policy leaves it open) reaches serves only the probes, and the main port serves
 * {@code /metrics} only to a token RBAC lets {@code get} the non-resource URL {@code /metrics}, as
 * kube-rbac-proxy does. Prometheus scrapes the engine's metrics port.
 */
class MetricsDoorsTest {

  private static final String SCRAPER = "scraper-token";
  private static final String TENANT = "tenant-token";

  private static final Access FAKE =
      new Access() {
        @Override
        public Optional<User> authenticate(String token) {
          return switch (token) {
            case SCRAPER ->
                Optional.of(new User("system:serviceaccount:monitoring:prom", List.of()));
            case TENANT -> Optional.of(new User("bob", List.of("system:authenticated")));
            default -> Optional.empty();
          };
        }

        @Override
        public boolean allowed(
            User user, String verb, String group, String resource, String namespace) {
          return false;
        }

        @Override
        public boolean allowedPath(User user, String verb, String path) {
          return user.name().endsWith(":prom") && verb.equals("get") && path.equals("/metrics");
        }
      };

  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static AdmissionServer server;

  @BeforeAll
  static void start() {
    server =
        AdmissionServer.builder(PluginConfig.plainHttpOnLoopback(0), TestClusters.state())
            .limits(ServerLimits.DEFAULTS.withHealthPort(0))
            .auth(ApiAuth.with(FAKE))
            .build()
            .start();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void theHealthPortServesTheProbesOnly() throws Exception {
    final int health = server.healthPort().getAsInt();

    assertThat(get(health, "/healthz", Optional.empty()).statusCode()).isEqualTo(200);
    assertThat(get(health, "/readyz", Optional.empty()).statusCode()).isEqualTo(200);
    final HttpResponse<String> metrics = get(health, "/metrics", Optional.empty());
    assertThat(metrics.statusCode()).isEqualTo(404);
    assertThat(metrics.body()).doesNotContain("quotaflow_").contains("metrics.port");
  }

  @Test
  void theMainPortServesMetricsToATokenRbacLetsGetThem() throws Exception {
    final HttpResponse<String> anonymous = get(server.port(), "/metrics", Optional.empty());
    final HttpResponse<String> tenant = get(server.port(), "/metrics", Optional.of(TENANT));
    final HttpResponse<String> scraper = get(server.port(), "/metrics", Optional.of(SCRAPER));

    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertThat(tenant.statusCode()).isEqualTo(403);
    assertThat(tenant.body()).contains("nonResourceURLs").doesNotContain("quotaflow_");
    assertThat(scraper.statusCode()).isEqualTo(200);
    assertThat(scraper.body()).contains("quotaflow_admission");
  }

  private static HttpResponse<String> get(int port, String path, Optional<String> token)
      throws Exception {
    final HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(5));
    token.ifPresent(value -> request.header("Authorization", "Bearer " + value));
    return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
