package io.quotaflow.admission.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.admission.state.MutableClock;
import io.quotaflow.admission.state.SnapshotClusterState;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 40.11: {@code /readyz} is per cluster. The instance is ready while every cluster assigned
 * to it can be answered, live or from a last state at most {@code admission.max.staleness} old (2 s
 * here, measured by the injected clock); a cluster assigned here whose task restores without such a
 * state makes it not ready, and the body names the cluster and why. A cluster moving to another
 * instance does not (a rebalance must not take every instance out of its Service at once).
 */
class ReadinessPerClusterTest {

  private static final PluginConfig.Staleness TWO_SECONDS =
      new PluginConfig.Staleness(Duration.ofSeconds(2), Duration.ofSeconds(1));

  private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));
  private final SnapshotClusterState state = TestClusters.state();
  private Plugin plugin = start();

  @AfterEach
  void stop() {
    plugin.close();
  }

  private Plugin start() {
    return Plugin.start(
        PluginConfig.plainHttpOnLoopback(0).withStaleness(TWO_SECONDS), state, clock);
  }

  /** A new instance, to which the cluster's task is assigned and restores: it never read it. */
  private void restoringOnANewInstance() {
    plugin.close();
    state.restoring("east", "task 0_0 is restoring");
    plugin = start();
  }

  @Test
  void aClusterRestoringHereWithAYoungLastStateKeepsTheInstanceReady() {
    plugin.server().refreshLastState();
    state.restoring("east", "task 0_0 is restoring");
    clock.advance(Duration.ofMillis(1_500));

    final Plugin.Reply ready = plugin.get("/readyz");

    assertThat(ready.status()).as(ready.body()).isEqualTo(200);
    assertThat(ready.body()).contains("1 clusters assigned here", "from the last state: east");
  }

  @Test
  void aClusterRestoringHereWhoseLastStateIsTooOldMakesItNotReadyNamingIt() {
    plugin.server().refreshLastState();
    state.restoring("east", "task 0_0 is restoring");
    clock.advance(Duration.ofMillis(2_001));

    final Plugin.Reply ready = plugin.get("/readyz");

    assertThat(ready.status()).as(ready.body()).isEqualTo(503);
    assertThat(ready.body())
        .contains("cannot be answered: east (task 0_0 is restoring")
        .contains("2001 ms old, older than admission.max.staleness PT2S");
  }

  @Test
  void aClusterRestoringHereWithoutAnyLastStateMakesItNotReady() {
    restoringOnANewInstance();

    final Plugin.Reply ready = plugin.get("/readyz");

    assertThat(ready.status()).as(ready.body()).isEqualTo(503);
    assertThat(ready.body())
        .contains("east (task 0_0 is restoring; no last state of it was read here)");
  }

  @Test
  void readyAgainOnceTheRestoredClusterIsServed() {
    restoringOnANewInstance();
    assertThat(plugin.get("/readyz").status()).isEqualTo(503);

    state.available("east");

    final Plugin.Reply ready = plugin.get("/readyz");
    assertThat(ready.status()).as(ready.body()).isEqualTo(200);
    assertThat(ready.body()).contains("1 clusters assigned here").doesNotContain("last state");
  }

  @Test
  void aClusterMovingToAnotherInstanceDoesNotMakeThisOneNotReady() {
    plugin.server().refreshLastState();
    state.unavailable("east", "no instance holds the cluster now (rebalance)");
    clock.advance(Duration.ofSeconds(5));

    final Plugin.Reply ready = plugin.get("/readyz");

    assertThat(ready.status()).as(ready.body()).isEqualTo(200);
    assertThat(ready.body()).contains("0 clusters assigned here");
  }
}
