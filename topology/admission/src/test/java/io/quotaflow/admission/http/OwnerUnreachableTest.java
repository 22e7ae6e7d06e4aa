package io.quotaflow.admission.http;

import static io.quotaflow.admission.http.Reviews.createPod;
import static io.quotaflow.admission.http.Reviews.pod;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.http.peers.PeerBreakers;
import io.quotaflow.admission.state.SnapshotClusterState;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The instance that owns cluster east is gone or silent (issue 40.10): the front instance answers
 * within the forward timeout, stops asking after three failures in a row, and answers from its
 * standby copy of east, stating its staleness, rather than by the failure policy.
 */
class OwnerUnreachableTest {

  /** A peer that accepts connections and never answers (a wedged or partitioned owner). */
  private static final class SilentPeer implements AutoCloseable {
    private final ServerSocket socket;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();

    SilentPeer() throws IOException {
      socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      final Thread acceptor =
          new Thread(
              () -> {
                while (!socket.isClosed()) {
                  try {
                    accepted.add(socket.accept());
                  } catch (IOException e) {
                    return;
                  }
                }
              },
              "silent-peer");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    int port() {
      return socket.getLocalPort();
    }

    @Override
    public void close() throws IOException {
      socket.close();
      for (final Socket open : accepted) {
        open.close();
      }
    }
  }

  private Plugin front;
  private Plugin standby;

  @AfterEach
  void stop() {
    if (front != null) {
      front.close();
    }
    if (standby != null) {
      standby.close();
    }
  }

  @Test
  void aSilentOwnerCostsAReviewNoMoreThanTheForwardTimeout() throws IOException {
    try (SilentPeer owner = new SilentPeer()) {
      front = Plugin.start(new SnapshotClusterState().remote("east", "127.0.0.1", owner.port()));

      final long started = System.nanoTime();
      final Plugin.Reply reply = review("u1", "1m");
      final long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

      assertThat(reply.json().path("response").path("warnings").path(0).asText())
          .contains("did not answer within PT0.5S");
      assertThat(millis)
          .as("admission.forward.timeout 500ms bounds the wait, connecting included")
          .isBetween(450L, 900L);
    }
  }

  @Test
  void afterThreeFailuresInARowTheOwnerIsNotAskedAndTheAnswerIsImmediate() throws IOException {
    try (SilentPeer owner = new SilentPeer()) {
      front = Plugin.start(new SnapshotClusterState().remote("east", "127.0.0.1", owner.port()));
      for (int i = 0; i < 3; i++) {
        review("slow-" + i, "1m");
      }
      final int asked = owner.accepted.size();

      final long started = System.nanoTime();
      final Plugin.Reply reply = review("fast", "1m");
      final long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

      assertThat(reply.json().path("response").path("warnings").path(0).asText())
          .contains("is not asked", "circuit breaker is open");
      assertThat(millis).as("no wait for a peer taken as dead").isLessThan(300L);
      assertThat(owner.accepted).as("no new connection to it").hasSize(asked);
      assertThat(front.get("/metrics").body())
          .contains(
              metric(PeerBreakers.STATE) + "{peer=\"127.0.0.1:" + owner.port() + "\"} 2.0",
              metric(PeerBreakers.FAILURES) + "_total{peer=\"127.0.0.1:" + owner.port() + "\"} 3.0",
              metric(PeerBreakers.SKIPPED) + "_total{peer=\"127.0.0.1:" + owner.port() + "\"} 1.0");
    }
  }

  @Test
  void aDeadOwnersClusterIsAnsweredFromTheStandbyCopyCountingWhatItAdmits() throws IOException {
    final int dead;
    try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      dead = closed.getLocalPort();
    }
    final SnapshotClusterState state =
        TestClusters.state()
            .standby("east", Instant.now().minus(Duration.ofSeconds(2)))
            .remote("east", "127.0.0.1", dead);
    final long room = TestClusters.room(TestClusters.state(), "team-a");
    front = Plugin.start(state);
    front.server().refreshLastState();

    final Plugin.Reply fits = review("fits", room + "m");
    final Plugin.Reply over = review("over", "1m");

    final JsonNode response = fits.json().path("response");
    assertThat(response.path("allowed").asBoolean()).as(fits.body()).isTrue();
    assertThat(fits.headers().firstValue(JettyHandler.OUTCOME_HEADER)).contains("allowed");
    assertThat(response.path("warnings").path(0).asText())
        .contains("last state of cluster east", "ms old", "did not answer")
        .doesNotContain("could not check");
    assertThat(response.path("auditAnnotations").path("state-age-ms").asLong())
        .as("dated by the copy's newest heartbeat, not by when it was read")
        .isGreaterThanOrEqualTo(2_000L);
    assertThat(over.json().path("response").path("allowed").asBoolean())
        .as("the first admission is held here: " + over.body())
        .isFalse();
    assertThat(over.headers().firstValue(JettyHandler.OUTCOME_HEADER)).contains("denied");
  }

  /**
   * Three instances or more: the front keeps no copy of east, so it asks the instance that keeps
   * east's standby, which answers from its copy and holds what it admits, for every front alike.
   */
  @Test
  void withoutACopyHereTheInstanceKeepingTheStandbyAnswers() throws IOException {
    final int dead = deadPort();
    standby =
        Plugin.start(
            TestClusters.state()
                .standby("east", Instant.now().minus(Duration.ofSeconds(2)))
                .remote("east", "127.0.0.1", dead));
    standby.server().refreshLastState();
    final long room = TestClusters.room(TestClusters.state(), "team-a");
    front =
        Plugin.start(
            new SnapshotClusterState()
                .remote("east", "127.0.0.1", dead)
                .standbyHost("east", "127.0.0.1", standby.port()));

    final Plugin.Reply fits = review("fits", room + "m");
    final Plugin.Reply over = review("over", "1m");

    final JsonNode response = fits.json().path("response");
    assertThat(response.path("allowed").asBoolean()).as(fits.body()).isTrue();
    assertThat(response.path("warnings").path(0).asText())
        .contains("last state of cluster east")
        .doesNotContain("could not check");
    assertThat(over.json().path("response").path("allowed").asBoolean())
        .as("held on the standby: " + over.body())
        .isFalse();
    assertThat(standby.server().holds().find("east")).isPresent();
    assertThat(front.server().holds().find("east")).isEmpty();
  }

  private static int deadPort() throws IOException {
    try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return closed.getLocalPort();
    }
  }

  private Plugin.Reply review(String name, String cpu) {
    return front.post(
        "/clusters/east/admission/pods", createPod(name, pod("alpha", name).cpu(cpu)));
  }

  private static String metric(String name) {
    return name.replace('.', '_');
  }
}
