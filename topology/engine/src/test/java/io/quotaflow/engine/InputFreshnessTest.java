package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.ReclaimScene.CHECK;
import static io.quotaflow.engine.ReclaimScene.DELAY;
import static io.quotaflow.engine.ReclaimScene.EAST;
import static io.quotaflow.engine.ReclaimScene.NS;
import static io.quotaflow.engine.ReclaimScene.teamABorrowsTheWholeCluster;
import static io.quotaflow.engine.ReclaimScene.teamBClaimsItsMin;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.store.InputId.InputKind;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.schemas.SourceMarker;
import io.quotaflow.topics.SourceMarkers;
import java.time.Duration;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Freshness as data (docs/reliability.md): the connectors' heartbeats and snapshots on the input
 * topics decide whether the engine may reclaim, and a snapshot drops the inputs it did not re-send.
 * On the reclaim scene ({@link ReclaimScene}): team-a over-uses by 3 cpu once team-b claims its
 * min, and a0 and a1 are its victims after the 120 s revoke delay.
 */
class InputFreshnessTest {
  private static final Duration HEARTBEAT = Duration.ofSeconds(10);

  @AutoClose private EngineDriver engine;

  private static EngineDriver markersRequired() {
    return new EngineDriver(
        EngineDriver.settings()
            .set(EngineSettings.INPUTS_MARKERS_REQUIRED.key(), "true")
            .set(EngineSettings.INPUTS_MAX_STALENESS.key(), "30s")
            .build());
  }

  /** Moves time on one revoke check at a time, with a heartbeat every 10 s when {@code beating}. */
  private void run(final Duration total, final boolean beating) {
    for (Duration done = Duration.ZERO; done.compareTo(total) < 0; done = done.plus(CHECK)) {
      if (beating && engine.now().getEpochSecond() % HEARTBEAT.toSeconds() == 0) {
        engine.heartbeat(EAST);
      }
      engine.advance(CHECK);
    }
  }

  private double gauge(final String name) {
    return engine.metrics().registry().get(name).tag("cluster", EAST).gauge().value();
  }

  @Test
  void aClusterWhoseInputsNeverCarriedAMarkerIsNotReclaimedWhenMarkersAreRequired() {
    engine = markersRequired();
    teamABorrowsTheWholeCluster(engine, false);
    teamBClaimsItsMin(engine);

    run(DELAY.multipliedBy(2), false);

    assertThat(engine.evictionRecords()).isEmpty();
    assertThat(gauge(EngineMetrics.RECLAIM_SUSPENDED)).isEqualTo(1.0);
    assertThat(gauge(EngineMetrics.INPUTS_STALENESS)).isEqualTo(-1.0);

    // With heartbeats the over-use clock starts, and counts the whole delay from there.
    run(DELAY.minus(Duration.ofSeconds(5)), true);
    assertThat(engine.evictionRecords()).isEmpty();
    run(Duration.ofSeconds(10), true);
    assertThat(engine.evictionRecords())
        .extracting(record -> record.key().getName())
        .containsExactlyInAnyOrder("a0", "a1");
    assertThat(gauge(EngineMetrics.RECLAIM_SUSPENDED)).isZero();
  }

  @Test
  void reclaimWaitsWhileHeartbeatsStopAndAfterAGapUntilASnapshotThenResumesWithThePausedClock() {
    engine = markersRequired();
    engine.heartbeat(EAST);
    teamABorrowsTheWholeCluster(engine, false);
    teamBClaimsItsMin(engine);
    // 60 s of over-use on fresh inputs, then the heartbeats stop (Kafka or the API server away).
    run(Duration.ofSeconds(60), true);
    run(Duration.ofMinutes(5), false);
    assertThat(engine.evictionRecords()).as("no decision on stale inputs").isEmpty();
    assertThat(gauge(EngineMetrics.RECLAIM_SUSPENDED)).isEqualTo(1.0);
    assertThat(gauge(EngineMetrics.INPUTS_STALENESS)).isGreaterThan(30.0);

    // Heartbeats again, after a gap: changes may be lost, so reclaim waits for a snapshot.
    run(Duration.ofMinutes(2), true);
    assertThat(engine.evictionRecords()).as("fresh but not yet whole").isEmpty();
    assertThat(gauge(EngineMetrics.RECLAIM_SUSPENDED)).isEqualTo(1.0);

    engine.snapshot(EAST, engine.now().toEpochMilli());
    // The over-use counted about 80 s before the inputs went stale (50 s to the last heartbeat,
    // then the 30 s staleness bound): about 40 s more are needed, not none.
    run(Duration.ofSeconds(30), true);
    assertThat(engine.evictionRecords()).as("the paused clock still needs its rest").isEmpty();
    run(Duration.ofSeconds(20), true);
    assertThat(engine.evictionRecords())
        .extracting(record -> record.key().getName())
        .containsExactlyInAnyOrder("a0", "a1");
  }

  /**
   * Issue 40, point 5: a connector clock an hour ahead stamped heartbeats an hour in the future,
   * and a cluster whose connectors then went quiet stayed trusted for that hour. A marker now
   * counts as of its record's time, never later than the engine's clock, and the skew is exported.
   */
  @Test
  void aConnectorClockAheadDoesNotKeepAQuietClusterTrusted() {
    engine = markersRequired();
    teamABorrowsTheWholeCluster(engine, false);
    teamBClaimsItsMin(engine);
    for (int beat = 0; beat < 6; beat++) {
      engine.heartbeatWithClockOff(EAST, Duration.ofHours(1)).advance(HEARTBEAT);
    }
    assertThat(gauge(EngineMetrics.RECLAIM_SUSPENDED)).as("while it beats").isZero();
    assertThat(gauge(EngineMetrics.INPUTS_CLOCK_SKEW)).isEqualTo(3600.0);

    // The connectors go quiet: 31 s later the cluster is stale, not an hour later.
    run(Duration.ofSeconds(35), false);

    assertThat(gauge(EngineMetrics.RECLAIM_SUSPENDED)).isEqualTo(1.0);
    assertThat(engine.evictionRecords()).as("no decision on stale inputs").isEmpty();
  }

  @Test
  void stalePodGroupsDoNotSuspendReclaimWhichDoesNotReadThem() {
    engine = markersRequired();
    // PodGroup markers once (connectors that watched them, rolled back since), then none.
    engine.marker(InputKind.PODGROUP, SourceMarkers.heartbeat(EAST, engine.now(), "connectors"));
    teamABorrowsTheWholeCluster(engine, false);
    teamBClaimsItsMin(engine);

    run(DELAY.plus(Duration.ofSeconds(10)), true);

    assertThat(engine.evictionRecords())
        .extracting(record -> record.key().getName())
        .containsExactlyInAnyOrder("a0", "a1");
    assertThat(gauge(EngineMetrics.RECLAIM_SUSPENDED)).isZero();
  }

  @Test
  void retiredDraMarkersDoNotSuspendReclaim() {
    engine = markersRequired();
    // DRA markers once, then connectors started with source.dra=false since, which retire the kind
    // (issue 40.13: before, no marker said so and stale DRA markers never counted).
    engine.marker(
        InputKind.RESOURCE_CLAIM, SourceMarkers.heartbeat(EAST, engine.now(), "connectors"));
    engine.marker(
        InputKind.RESOURCE_CLAIM, SourceMarkers.retired(EAST, engine.now(), "connectors"));
    teamABorrowsTheWholeCluster(engine, false);
    teamBClaimsItsMin(engine);

    run(DELAY.plus(Duration.ofSeconds(10)), true);

    assertThat(engine.evictionRecords())
        .extracting(record -> record.key().getName())
        .containsExactlyInAnyOrder("a0", "a1");
    assertThat(gauge(EngineMetrics.RECLAIM_SUSPENDED)).isZero();
  }

  /**
   * Issue 40.13: claims' markers stop (their watch is down) while the other kinds beat on: the
   * devices the quotas count may be stale, so reclaim waits. Before, DRA markers never counted and
   * the engine evicted on them.
   */
  @Test
  void staleDraMarkersOfAClusterThatPublishedThemSuspendReclaim() {
    engine = markersRequired();
    engine.marker(
        InputKind.RESOURCE_CLAIM, SourceMarkers.heartbeat(EAST, engine.now(), "connectors"));
    teamABorrowsTheWholeCluster(engine, false);
    teamBClaimsItsMin(engine);

    run(DELAY.plus(Duration.ofSeconds(10)), true);

    assertThat(engine.evictionRecords()).isEmpty();
    assertThat(gauge(EngineMetrics.RECLAIM_SUSPENDED)).isEqualTo(1.0);
  }

  @Test
  void aSnapshotDropsTheInputsItDidNotResendAndKeepsThoseWrittenSinceItsStart() {
    engine = markersRequired();
    teamABorrowsTheWholeCluster(engine, false);
    assertThat(engine.group(EAST, "team-a").used()).isEqualTo(ResourceList.of("cpu", 8_000));

    final long epoch = engine.now().toEpochMilli();
    engine.marker(InputKind.POD, SourceMarkers.snapshotStart(EAST, epoch, engine.now(), "test"));
    // a2 and a3 were deleted while their tombstones could not be written: not re-sent.
    engine.putPod(EAST, NS, pod("a0").group("team-a").running("n1", Inputs.CREATED).cpu(2_000));
    engine.putPod(EAST, NS, pod("a1").group("team-a").running("n1", Inputs.CREATED).cpu(2_000));
    engine.marker(InputKind.POD, SourceMarkers.snapshotEnd(EAST, epoch, 2, engine.now(), "test"));
    engine.recompute();

    assertThat(engine.group(EAST, "team-a").used()).isEqualTo(ResourceList.of("cpu", 4_000));
    assertThat(
            engine
                .metrics()
                .registry()
                .get(EngineMetrics.SNAPSHOT_DROPPED)
                .tags("cluster", EAST, "kind", "pod")
                .counter()
                .count())
        .isEqualTo(2.0);
    // Only pods were snapshotted: the node and the groups stay.
    assertThat(engine.group(EAST, "team-b").min()).isEqualTo(ResourceList.of("cpu", 5_000));
  }

  @Test
  void aSnapshotEndWhoseStartWasNotReadDropsNothing() {
    engine = markersRequired();
    teamABorrowsTheWholeCluster(engine, false);
    final long epoch = engine.now().toEpochMilli();

    engine.marker(InputKind.POD, SourceMarkers.snapshotEnd(EAST, epoch, 0, engine.now(), "test"));
    engine.recompute();

    assertThat(engine.group(EAST, "team-a").used()).isEqualTo(ResourceList.of("cpu", 8_000));
  }

  @Test
  void aQuarantinedClusterIsNeitherRecomputedNorReclaimed() {
    engine = new EngineDriver();
    teamABorrowsTheWholeCluster(engine, false);
    teamBClaimsItsMin(engine);
    engine.metrics().quarantine().quarantine(EAST, "a poison record");
    engine.putPod(EAST, NS, pod("a9").group("team-a").running("n1", Inputs.CREATED).cpu(1_000));

    run(DELAY.multipliedBy(2), false);

    assertThat(engine.evictionRecords()).as("not reclaimed").isEmpty();
    assertThat(engine.group(EAST, "team-a").used())
        .as("not recomputed: a9 is not counted")
        .isEqualTo(ResourceList.of("cpu", 8_000));
    assertThat(gauge(EngineMetrics.RECLAIM_SUSPENDED)).isEqualTo(1.0);
  }

  @Test
  void aMarkerNamingAnotherClusterThanItsKeyIsRejected() {
    engine = markersRequired();
    final SourceMarker west = SourceMarkers.heartbeat("west", engine.now(), "test");

    engine.markerUnderKeyOf(EAST, west);

    assertThat(engine.rejectedRecords()).hasSize(1);
  }
}
