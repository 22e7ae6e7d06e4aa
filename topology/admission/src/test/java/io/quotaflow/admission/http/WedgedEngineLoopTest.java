package io.quotaflow.admission.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.engine.liveness.Heartbeats;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Issue 40.11: in the engine process {@code /healthz} answers 503 naming a loop (a stream task)
 * silent longer than its allowed silence, so the liveness probe restarts a wedged instance; here a
 * loop that beats every round is blocked on a latch, as a thread stuck in processing would be.
 */
class WedgedEngineLoopTest {

  private static final Duration ALLOWED = Duration.ofMillis(300);

  @Test
  void aLoopBlockedOnALatchTurnsHealthzTo503WithinItsAllowedSilence() throws Exception {
    final Heartbeats heartbeats = new Heartbeats(Clock.systemUTC());
    final SnapshotClusterState state = TestClusters.state().heartbeats(heartbeats);
    final CountDownLatch release = new CountDownLatch(1);
    final AtomicBoolean wedge = new AtomicBoolean();
    final AtomicBoolean stop = new AtomicBoolean();
    final Heartbeats.Beat beat = heartbeats.register("stream task 0_0", ALLOWED);
    final Thread loop =
        new Thread(
            () -> {
              try {
                while (!stop.get()) {
                  beat.beat();
                  if (wedge.get()) {
                    release.await();
                  }
                  Thread.sleep(10);
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    loop.start();
    try (Plugin plugin = Plugin.start(PluginConfig.plainHttpOnLoopback(0), state)) {
      await()
          .during(Duration.ofMillis(2 * ALLOWED.toMillis()))
          .atMost(Duration.ofSeconds(5))
          .until(() -> plugin.get("/healthz").status() == 200);

      wedge.set(true);
      final long wedgedAt = System.nanoTime();
      await()
          .atMost(Duration.ofSeconds(5))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> plugin.get("/healthz").status() == 503);
      final Duration toFail = Duration.ofNanos(System.nanoTime() - wedgedAt);

      final Plugin.Reply wedged = plugin.get("/healthz");
      assertThat(wedged.body()).contains("stream task 0_0 silent for", "allowed 300 ms");
      assertThat(toFail).isLessThan(ALLOWED.plusSeconds(1));

      release.countDown();
      await().atMost(Duration.ofSeconds(5)).until(() -> plugin.get("/healthz").status() == 200);
    } finally {
      stop.set(true);
      release.countDown();
      loop.join(TimeUnit.SECONDS.toMillis(5));
    }
  }
}
