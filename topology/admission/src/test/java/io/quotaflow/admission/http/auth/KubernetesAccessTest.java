package io.quotaflow.admission.http.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.lang.ref.WeakReference;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The questions quotaflow asks the API server about people, on the fabric8 mock API server
 * answering as a real one does: a TokenReview authenticates a token (or not), a SubjectAccessReview
 * answers one question of RBAC; {@link CachedAccess} asks each once per TTL.
 */
class KubernetesAccessTest {

  private static final String TOKEN_REVIEWS = "/apis/authentication.k8s.io/v1/tokenreviews";
  private static final String ACCESS_REVIEWS = "/apis/authorization.k8s.io/v1/subjectaccessreviews";
  private static final AtomicInteger ASKED = new AtomicInteger();
  private static final List<String> ACCESS_BODIES = new CopyOnWriteArrayList<>();

  private static KubernetesMockServer server;
  private static KubernetesClient client;

  @BeforeAll
  static void start() {
    server = new KubernetesMockServer(false);
    server.init();
    client = server.createClient();
    server
        .expect()
        .post()
        .withPath(TOKEN_REVIEWS)
        .andReply(
            201,
            request -> {
              ASKED.incrementAndGet();
              final boolean good = request.getBody().readUtf8().contains("\"good-token\"");
              return "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenReview\","
                  + "\"status\":"
                  + (good
                      ? "{\"authenticated\":true,\"user\":{\"username\":\"alice\","
                          + "\"uid\":\"u-42\",\"groups\":[\"dev\",\"system:authenticated\"],"
                          + "\"extra\":{\"authentication.kubernetes.io/pod-name\":[\"web-0\"]}}}"
                      : "{\"authenticated\":false,\"error\":\"invalid bearer token\"}")
                  + "}";
            })
        .always();
    server
        .expect()
        .post()
        .withPath(ACCESS_REVIEWS)
        .andReply(
            201,
            request -> {
              ASKED.incrementAndGet();
              final String body = request.getBody().readUtf8();
              ACCESS_BODIES.add(body);
              final boolean allowed =
                  body.contains("\"user\":\"alice\"") && body.contains("\"namespace\":\"beta\"");
              return "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SubjectAccessReview\","
                  + "\"status\":{\"allowed\":"
                  + allowed
                  + "}}";
            })
        .always();
  }

  @AfterAll
  static void stop() {
    client.close();
    server.destroy();
  }

  @Test
  void aTokenTheApiServerAuthenticatesNamesItsUserAndGroups() {
    final KubernetesAccess access = new KubernetesAccess(client);

    assertThat(access.authenticate("good-token"))
        .contains(
            new User(
                "alice",
                "u-42",
                List.of("dev", "system:authenticated"),
                Map.of("authentication.kubernetes.io/pod-name", List.of("web-0"))));
    assertThat(access.authenticate("forged")).isEmpty();
  }

  @Test
  void aSubjectAccessReviewAnswersOneQuestionOfRbac() {
    final KubernetesAccess access = new KubernetesAccess(client);
    final User alice = new User("alice", List.of("dev"));

    assertThat(access.allowed(alice, "list", "", "pods", "beta")).isTrue();
    assertThat(access.allowed(alice, "list", "", "pods", "alpha")).isFalse();
    assertThat(access.allowed(alice, "list", "", "pods", "")).isFalse();
  }

  /** Issue 39, point 10: RBAC and authorisation webhooks may decide by the uid and the extras. */
  @Test
  void aSubjectAccessReviewCarriesTheTokensUidAndExtra() {
    final KubernetesAccess access = new KubernetesAccess(client);
    final User alice = access.authenticate("good-token").orElseThrow();
    ACCESS_BODIES.clear();

    access.allowed(alice, "list", "", "pods", "beta");

    assertThat(ACCESS_BODIES).hasSize(1);
    assertThat(ACCESS_BODIES.get(0))
        .contains("\"uid\":\"u-42\"")
        .contains("\"extra\":{\"authentication.kubernetes.io/pod-name\":[\"web-0\"]}");
  }

  /**
   * Issue 39, point 6: refusals are kept by the token's digest, never the token (100,000 kept 8 KB
   * tokens were 800 MB), and at most as many as the cache may keep.
   */
  @Test
  void theCacheKeepsNoTokenAndAtMostItsEntries() {
    final CachedAccess access =
        new CachedAccess(
            new Access() {
              @Override
              public Optional<User> authenticate(String token) {
                return Optional.empty();
              }

              @Override
              public boolean allowed(
                  User user, String verb, String group, String resource, String namespace) {
                return false;
              }
            },
            Duration.ofSeconds(30),
            new MutableClock(),
            100);
    final String prefix = "x".repeat(8_000);
    for (int i = 0; i < 1_000; i++) {
      access.authenticate(prefix + i);
    }
    // The newest answer, which the cache keeps: its token must not be kept with it.
    String token = prefix + "last";
    final WeakReference<String> kept = new WeakReference<>(token);
    access.authenticate(token);
    token = null;

    assertThat(access.tokensKept()).isEqualTo(100);
    Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> {
              System.gc();
              return kept.get() == null;
            });
  }

  @Test
  void answersAreKeptForTheirTtlThenAskedAgain() {
    final MutableClock clock = new MutableClock();
    final CachedAccess access =
        new CachedAccess(new KubernetesAccess(client), Duration.ofSeconds(30), clock, 1000);
    final int before = ASKED.get();

    access.authenticate("good-token");
    access.authenticate("good-token");
    access.authenticate("forged");
    access.authenticate("forged");
    assertThat(ASKED.get() - before).as("one question per token").isEqualTo(2);

    clock.now = clock.now.plusSeconds(31);
    access.authenticate("good-token");
    assertThat(ASKED.get() - before).as("asked again after the TTL").isEqualTo(3);
  }

  private static final class MutableClock extends Clock {
    Instant now = Instant.parse("2026-11-26T00:00:00Z");

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
