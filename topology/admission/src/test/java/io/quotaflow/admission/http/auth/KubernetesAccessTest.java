package io.quotaflow.admission.http.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
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
                          + "\"groups\":[\"dev\",\"system:authenticated\"]}}"
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
        .contains(new User("alice", List.of("dev", "system:authenticated")));
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
