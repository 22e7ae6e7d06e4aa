package io.quotaflow.engine.freshness;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.engine.store.InputId;
import io.quotaflow.engine.store.InputId.InputKind;
import io.quotaflow.schemas.SourceMarker;
import io.quotaflow.schemas.internal.InputFreshness;
import io.quotaflow.topics.SourceMarkers;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 40, point 13: a DRA kind counts for trust once the cluster published a marker of it, until
 * the connectors say they no longer watch it (a {@code RETIRED} marker). Before, DRA kinds never
 * counted, so a cluster whose DRA watch was down was still reclaimed in on device counts from
 * claims the engine no longer saw change. One in-memory store through its serdes, as the
 * changelogged one; a task re-created is a new book over the same store.
 */
class DraTrustTest {
  private static final String EAST = "east";
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Duration MAX_STALENESS = Duration.ofSeconds(30);
  private static final Duration BEAT = Duration.ofSeconds(10);

  private KeyValueStore<InputId, InputFreshness> store;
  private InputFreshnessBook book;
  private Instant now = T0;
  private long offset;

  @BeforeEach
  void store() {
    store = FreshnessStores.inMemory();
    book = recreated();
  }

  private InputFreshnessBook recreated() {
    final InputFreshnessBook fresh = new InputFreshnessBook(store, MAX_STALENESS, true);
    fresh.restore();
    return fresh;
  }

  private void read(final InputKind kind, final SourceMarker marker) {
    book.marker(
        EAST,
        kind,
        marker,
        kind.name().toLowerCase(),
        0,
        ++offset,
        now.toEpochMilli(),
        now.toEpochMilli());
  }

  private void heartbeat(final InputKind kind) {
    read(kind, SourceMarkers.heartbeat(EAST, now, "test"));
  }

  private void retired(final InputKind kind) {
    read(kind, SourceMarkers.retired(EAST, now, "test"));
  }

  /** The core kinds beat every 10 s for {@code time}; nothing else is written. */
  private void coreBeatsFor(final Duration time) {
    final Instant until = now.plus(time);
    while (now.isBefore(until)) {
      now = now.plus(BEAT);
      for (final InputKind kind :
          new InputKind[] {InputKind.POD, InputKind.QUOTA, InputKind.NODE, InputKind.PROFILE}) {
        heartbeat(kind);
      }
    }
  }

  private Optional<String> distrust() {
    return book.distrust(EAST, now);
  }

  @Test
  void aPublishedDraKindWhoseMarkersStopLeavesTheClusterUntrusted() {
    coreBeatsFor(BEAT);
    heartbeat(InputKind.RESOURCE_CLAIM);

    coreBeatsFor(Duration.ofMinutes(2));

    assertThat(distrust())
        .hasValueSatisfying(why -> assertThat(why).contains("resource_claim heartbeat"));
    assertThat(book.staleness(EAST, now)).hasValueSatisfying(age -> assertThat(age).isPositive());
  }

  @Test
  void aGapInAPublishedDraKindWaitsForItsSnapshot() {
    coreBeatsFor(BEAT);
    heartbeat(InputKind.RESOURCE_SLICE);
    coreBeatsFor(Duration.ofMinutes(2));

    heartbeat(InputKind.RESOURCE_SLICE);

    assertThat(distrust())
        .hasValueSatisfying(why -> assertThat(why).contains("resource_slice inputs had a gap"));
    final long epoch = now.toEpochMilli();
    read(InputKind.RESOURCE_SLICE, SourceMarkers.snapshotStart(EAST, epoch, now, "test"));
    read(InputKind.RESOURCE_SLICE, SourceMarkers.snapshotEnd(EAST, epoch, 0, now, "test"));
    assertThat(distrust()).isEmpty();
  }

  @Test
  void aTaskReCreatedRemembersThatTheClusterPublishedDra() {
    coreBeatsFor(BEAT);
    heartbeat(InputKind.DEVICE_CLASS);
    book = recreated();

    coreBeatsFor(Duration.ofMinutes(2));

    assertThat(distrust())
        .hasValueSatisfying(why -> assertThat(why).contains("device_class heartbeat"));
  }

  @Test
  void aRetiredDraKindNoLongerCountsAndTheOtherKindsDecide() {
    coreBeatsFor(BEAT);
    heartbeat(InputKind.RESOURCE_CLAIM);
    heartbeat(InputKind.RESOURCE_CLAIM_TEMPLATE);
    coreBeatsFor(Duration.ofMinutes(2));
    assertThat(distrust()).isPresent();

    retired(InputKind.RESOURCE_CLAIM);
    retired(InputKind.RESOURCE_CLAIM_TEMPLATE);

    assertThat(distrust()).isEmpty();
    coreBeatsFor(Duration.ofMinutes(5));
    assertThat(distrust()).isEmpty();
    book = recreated();
    assertThat(distrust()).isEmpty();
    // The core kinds still decide: silent, the cluster is stale again.
    now = now.plus(Duration.ofMinutes(2));
    assertThat(distrust()).hasValueSatisfying(why -> assertThat(why).contains("heartbeat"));
  }

  @Test
  void aRetiredKindWatchedAgainCountsAgainFromItsFirstMarker() {
    coreBeatsFor(BEAT);
    heartbeat(InputKind.RESOURCE_CLAIM);
    retired(InputKind.RESOURCE_CLAIM);
    coreBeatsFor(Duration.ofMinutes(10));

    // The connectors watch claims again: their first marker is a snapshot start, no gap.
    final long epoch = now.toEpochMilli();
    read(InputKind.RESOURCE_CLAIM, SourceMarkers.snapshotStart(EAST, epoch, now, "test"));
    read(InputKind.RESOURCE_CLAIM, SourceMarkers.snapshotEnd(EAST, epoch, 0, now, "test"));
    assertThat(distrust()).isEmpty();

    coreBeatsFor(Duration.ofMinutes(2));
    assertThat(distrust())
        .hasValueSatisfying(why -> assertThat(why).contains("resource_claim heartbeat"));
  }

  @Test
  void aClusterThatNeverPublishedDraIsJudgedOnTheOtherKindsAlone() {
    coreBeatsFor(Duration.ofMinutes(5));

    assertThat(distrust()).isEmpty();
  }

  @Test
  void aRetirementOfAKindTheQuotasNeedIsIgnored() {
    coreBeatsFor(BEAT);
    retired(InputKind.POD);
    now = now.plus(Duration.ofMinutes(2));

    assertThat(distrust()).hasValueSatisfying(why -> assertThat(why).contains("heartbeat"));
    book = recreated();
    assertThat(distrust()).isPresent();
  }
}
