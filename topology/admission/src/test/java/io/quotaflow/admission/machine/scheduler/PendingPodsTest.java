package io.quotaflow.admission.machine.scheduler;

import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.admission.http.TestClusters;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.reason.Reason;
import io.quotaflow.tree.Fixtures;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Why pods wait: the filter's last refusal per pod, gauged per group and reason. */
class PendingPodsTest {

  private static final String EAST = TestClusters.EAST;
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  private static final Duration TTL = Duration.ofMinutes(10);
  private static final PodRef WAITING = new PodRef("ns-team", "waiting");

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  /** A state of east whose pods are {@code pods}. */
  private static SnapshotClusterState stateWith(QuotaPod.Builder... pods) {
    final Fixtures.ClusterBuilder cluster =
        Fixtures.cluster()
            .total(cpu(10_000))
            .group(quota("team").min(cpu(1_000)).max(cpu(2_000)))
            .group(quota("mate").min(cpu(1_000)).max(cpu(2_000)));
    for (final QuotaPod.Builder pod : pods) {
      cluster.pod(pod);
    }
    return TestClusters.state(cluster);
  }

  private static QuotaPod.Builder pendingPod() {
    return Fixtures.pod("team", "waiting").request(cpu(5_000));
  }

  /** Every series, as {@code group/reason=value}. */
  private Map<String, Double> series() {
    final Map<String, Double> series = new TreeMap<>();
    for (final Gauge gauge : registry.find(PendingPods.PENDING).gauges()) {
      series.put(
          gauge.getId().getTag("name") + "/" + gauge.getId().getTag("reason"), gauge.value());
    }
    return series;
  }

  private double omitted() {
    return registry.get(PendingPods.OMITTED).gauge().value();
  }

  @Test
  void aPodCountsForTheReasonOfItsLatestRefusalOnly() {
    final PendingPods pending = new PendingPods(registry, 10, TTL);

    pending.refused(EAST, WAITING, "team", Reason.EXCEEDS_RUNTIME, T0);
    pending.refused(EAST, new PodRef("ns-team", "other"), "team", Reason.EXCEEDS_RUNTIME, T0);
    pending.refused(EAST, WAITING, "team", Reason.NODE_RESERVED, T0.plusSeconds(1));

    assertThat(series())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("team/exceeds-runtime", 1.0, "team/node-reserved", 1.0));
  }

  @Test
  void aPodTheStateShowsOnANodeIsForgotten() {
    final PendingPods pending = new PendingPods(registry, 10, TTL);
    pending.refused(EAST, WAITING, "team", Reason.EXCEEDS_RUNTIME, T0);

    pending.sweep(stateWith(pendingPod()), T0.plusSeconds(1));
    assertThat(series()).containsEntry("team/exceeds-runtime", 1.0);

    pending.sweep(stateWith(pendingPod().running("node-1")), T0.plusSeconds(2));
    assertThat(series()).isEmpty();
  }

  @Test
  void aPodTheStateNoLongerListsIsForgottenAtTheSecondSweepWithoutIt() {
    final PendingPods pending = new PendingPods(registry, 10, TTL);
    pending.refused(EAST, WAITING, "team", Reason.EXCEEDS_RUNTIME, T0);
    final SnapshotClusterState deleted = stateWith();

    // Once unlisted may be a pod just created that the engine has not read yet.
    pending.sweep(deleted, T0.plusSeconds(1));
    assertThat(series()).containsEntry("team/exceeds-runtime", 1.0);

    pending.sweep(deleted, T0.plusSeconds(2));
    assertThat(series()).isEmpty();
  }

  @Test
  void aPodNotRefusedAgainForTheTimeToLiveIsForgotten() {
    final PendingPods pending = new PendingPods(registry, 10, TTL);
    pending.refused(EAST, WAITING, "team", Reason.EXCEEDS_RUNTIME, T0);
    final SnapshotClusterState stillPending = stateWith(pendingPod());

    pending.sweep(stillPending, T0.plus(TTL).minusSeconds(1));
    assertThat(series()).containsEntry("team/exceeds-runtime", 1.0);

    pending.sweep(stillPending, T0.plus(TTL));
    assertThat(series()).isEmpty();
  }

  @Test
  void aClusterThatMovedToAnotherInstanceIsForgotten() {
    final PendingPods pending = new PendingPods(registry, 10, TTL);
    pending.refused(EAST, WAITING, "team", Reason.EXCEEDS_RUNTIME, T0);

    pending.sweep(stateWith(pendingPod()).remote(EAST, "10.0.0.2", 8443), T0.plusSeconds(1));

    assertThat(series()).isEmpty();
  }

  @Test
  void groupsBeyondTheCapGetNoSeriesAndAreCountedAsOmitted() {
    final PendingPods pending = new PendingPods(registry, 1, TTL);

    pending.refused(EAST, WAITING, "team", Reason.EXCEEDS_RUNTIME, T0);
    pending.refused(EAST, new PodRef("ns-mate", "m"), "mate", Reason.EXCEEDS_MAX, T0);

    assertThat(series()).containsOnlyKeys("team/exceeds-runtime");
    assertThat(omitted()).isEqualTo(1);

    pending.allowed(EAST, new PodRef("ns-mate", "m"));
    assertThat(omitted()).isZero();
    pending.allowed(EAST, WAITING);
    pending.refused(EAST, new PodRef("ns-mate", "m"), "mate", Reason.EXCEEDS_MAX, T0);
    // team's slot was freed when its last pod passed.
    assertThat(series()).containsOnlyKeys("mate/exceeds-max");
  }

  @Test
  void aCapOfZeroTurnsTheGaugesOff() {
    final PendingPods pending = new PendingPods(registry, 0, TTL);

    pending.refused(EAST, WAITING, "team", Reason.EXCEEDS_RUNTIME, T0);

    assertThat(series()).isEmpty();
    assertThat(registry.find(PendingPods.OMITTED).gauge()).isNull();
  }
}
