package io.quotaflow.admission.http;

import static io.quotaflow.admission.http.Reviews.createPod;
import static io.quotaflow.admission.http.Reviews.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.admission.http.auth.Access;
import io.quotaflow.admission.http.auth.ApiAuth;
import io.quotaflow.admission.http.auth.CachedAccess;
import io.quotaflow.admission.http.auth.User;
import io.quotaflow.admission.http.limits.ServerLimits;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 39, point 6, tried as an attacker would: 200 connections flood the query API and the
 * sign-in ({@code POST /api/v1/session}) with random 8 KB tokens while the API server calls the pod
 * webhook. Every token is new, so each used to become a TokenReview on the webhooks' own threads;
 * with an API server slowed by the flood (1.5 s a review here, as one throttling the plugin's
 * service account would be) the workers were all waiting on it and the reviews timed out. Now
 * people are answered on threads of their own, at a rate per client, long tokens are never sent,
 * and the kept answers are digests: every review is answered within the API server's 2 s timeout.
 */
@Tag("slow")
class PeopleFloodIT {

  private static final String PODS = "/clusters/east/admission/pods";
  private static final int CONNECTIONS = 200;
  private static final int REVIEWS = 60;
  private static final Duration REVIEW_TIMEOUT = Duration.ofSeconds(2);
  private static final Duration API_SERVER_DELAY = Duration.ofMillis(1_500);

  private final AtomicBoolean flooding = new AtomicBoolean(true);
  private final AtomicInteger tokenReviews = new AtomicInteger();
  private final Map<Integer, AtomicLong> floodAnswers = new ConcurrentHashMap<>();
  private final HttpClient floodClient =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private AdmissionServer server;

  /** An API server that refuses every token, slowly: a flood of TokenReviews throttles it. */
  private final Access slowApiServer =
      new Access() {
        @Override
        public Optional<User> authenticate(String token) {
          tokenReviews.incrementAndGet();
          // The API server's latency under the flood, not a wait of the test's.
          try {
            Thread.sleep(API_SERVER_DELAY.toMillis());
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return Optional.empty();
        }

        @Override
        public boolean allowed(
            User user, String verb, String group, String resource, String namespace) {
          return false;
        }
      };

  @AfterEach
  void stop() {
    flooding.set(false);
    if (server != null) {
      server.close();
    }
  }

  @Test
  void aFloodOfRandomTokensNeitherDelaysThePodWebhookNorFillsTheHeap() throws Exception {
    floodWhileReviewing(
        ApiAuth.with(
            new CachedAccess(slowApiServer, Duration.ofSeconds(30), Clock.systemUTC(), 10_000)),
        ServerLimits.DEFAULTS);
  }

  /**
   * The same flood with the token cap and the rate per client out of the way: every token reaches
   * the slow API server, and people's own threads alone keep the webhook answering.
   */
  @Test
  void peoplesOwnThreadsAloneKeepThePodWebhookAnswering() throws Exception {
    floodWhileReviewing(
        ApiAuth.with(
            new CachedAccess(slowApiServer, Duration.ofSeconds(30), Clock.systemUTC(), 10_000),
            16_384),
        ServerLimits.DEFAULTS.withPeople(new ServerLimits.People(4, 64, 100_000)));
    assertThat(tokenReviews.get()).as("tokens sent to the API server").isPositive();
  }

  private void floodWhileReviewing(ApiAuth auth, ServerLimits limits) throws Exception {
    server =
        AdmissionServer.builder(PluginConfig.plainHttpOnLoopback(0), TestClusters.state())
            .auth(auth)
            .limits(limits)
            .build()
            .start();
    for (int lane = 0; lane < CONNECTIONS; lane++) {
      flood(lane);
    }
    // The flood is under way when every connection has had an answer or is waiting on one.
    final long flooded = System.nanoTime();
    while (total() < CONNECTIONS && System.nanoTime() - flooded < TimeUnit.SECONDS.toNanos(5)) {
      Thread.onSpinWait();
    }

    final List<Long> millis = new ArrayList<>();
    int answered = 0;
    for (int i = 0; i < REVIEWS; i++) {
      final long started = System.nanoTime();
      final Optional<Plugin.Reply> reply =
          review(createPod("u" + i, pod("beta", "p" + i).quota("team-b").cpu("1m")));
      millis.add((System.nanoTime() - started) / 1_000_000);
      if (reply.isPresent()
          && reply.get().status() == 200
          && reply.get().json().get("response").get("allowed").asBoolean()) {
        answered++;
      }
    }
    flooding.set(false);

    Collections.sort(millis);
    final long p99 = millis.get((int) Math.ceil(millis.size() * 0.99) - 1);
    System.gc();
    final long heapMb =
        ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / (1024 * 1024);
    System.out.printf(
        "PeopleFloodIT: %d reviews beside %d flooding connections: p50 %d ms, p99 %d ms, max %d"
            + " ms; flood answers by status %s; TokenReviews asked %d; heap after GC %d MB%n",
        REVIEWS,
        CONNECTIONS,
        millis.get(millis.size() / 2),
        p99,
        millis.get(millis.size() - 1),
        new TreeMap<>(floodAnswers),
        tokenReviews.get(),
        heapMb);
    assertThat(answered).as("reviews answered within %s", REVIEW_TIMEOUT).isEqualTo(REVIEWS);
    assertThat(p99).as("p99 (ms)").isLessThan(REVIEW_TIMEOUT.toMillis());
    assertThat(total()).as("flood requests answered").isGreaterThan(CONNECTIONS);
  }

  /** One flooding connection: asks again as soon as it is answered, until the test ends. */
  private void flood(int lane) {
    if (!flooding.get()) {
      return;
    }
    // Half sign in with an 8 KB token in the body, half read the tree with one in the header
    // (7,900 characters: the rest of the request fits Jetty's 8 KB of headers).
    final HttpRequest request =
        lane % 2 == 0
            ? HttpRequest.newBuilder(url("/api/v1/session"))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"token\": \"" + token(8_192) + "\"}"))
                .build()
            : HttpRequest.newBuilder(url("/api/v1/clusters/east/quotas"))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token(7_900))
                .build();
    floodClient
        .sendAsync(request, HttpResponse.BodyHandlers.discarding())
        .whenComplete(
            (response, failure) -> {
              floodAnswers
                  .computeIfAbsent(
                      response == null ? -1 : response.statusCode(), s -> new AtomicLong())
                  .incrementAndGet();
              flood(lane);
            });
  }

  private long total() {
    return floodAnswers.values().stream().mapToLong(AtomicLong::get).sum();
  }

  /**
   * A token no cache has seen. Not from a SecureRandom: 200 lanes drawing 8,000 characters each
   * from one lock-guarded generator made the flood wait on itself (most of the test's minute), not
   * on the server.
   */
  private static String token(int length) {
    final ThreadLocalRandom random = ThreadLocalRandom.current();
    final String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    final StringBuilder token = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      token.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return token.toString();
  }

  /** A pod review as the API server sends it, with its webhook timeout; empty when it timed out. */
  private Optional<Plugin.Reply> review(String body) throws InterruptedException {
    final HttpRequest request =
        HttpRequest.newBuilder(url(PODS))
            .timeout(REVIEW_TIMEOUT)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    try {
      final HttpResponse<String> response =
          REVIEWER.send(request, HttpResponse.BodyHandlers.ofString());
      return Optional.of(
          new Plugin.Reply(response.statusCode(), response.body(), response.headers()));
    } catch (java.io.IOException e) {
      return Optional.empty();
    }
  }

  private static final HttpClient REVIEWER =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private URI url(String path) {
    return URI.create("http://127.0.0.1:" + server.port() + path);
  }
}
