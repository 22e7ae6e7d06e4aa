package io.quotaflow.engine.freshness;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.engine.freshness.InputFreshnessBook.SnapshotStart;
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
 * Issue 40, point 6: a snapshot's end clears a gap only when the same task read its start after the
 * gap was seen (processing order, not the connectors' clock against the engine's), and the start is
 * kept in the changelogged store, so a task re-created between the two still knows it. Each book
 * here runs over one in-memory store (through its serdes, as the changelogged store); a task
 * re-created is a new book over the same store, restored.
 */
class InputFreshnessBookTest {
  private static final String EAST = "east";
  private static final String TOPIC = "pods.v1";
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Duration MAX_STALENESS = Duration.ofSeconds(30);

  private KeyValueStore<InputId, InputFreshness> store;
  private InputFreshnessBook book;
  private Instant now = T0;
  private long offset;

  @BeforeEach
  void store() {
    store = FreshnessStores.inMemory();
    book = recreated();
  }

  /** A new task over the same (restored) store. */
  private InputFreshnessBook recreated() {
    final InputFreshnessBook fresh = new InputFreshnessBook(store, MAX_STALENESS, true);
    fresh.restore();
    return fresh;
  }

  /** {@code marker} read now, appended now, at the next offset of the pods' partition. */
  private Optional<SnapshotStart> read(final SourceMarker marker) {
    return readAt(marker, ++offset);
  }

  private Optional<SnapshotStart> readAt(final SourceMarker marker, final long at) {
    return book.marker(
        EAST, InputKind.POD, marker, TOPIC, 0, at, now.toEpochMilli(), now.toEpochMilli());
  }

  private Optional<SnapshotStart> heartbeat() {
    return read(SourceMarkers.heartbeat(EAST, now, "test"));
  }

  /** A snapshot start stamped by a connector clock {@code off} from the engine's. */
  private Optional<SnapshotStart> start(final Duration off) {
    final Instant stamped = now.plus(off);
    return read(SourceMarkers.snapshotStart(EAST, stamped.toEpochMilli(), stamped, "test"));
  }

  private Optional<SnapshotStart> end(final long epoch) {
    return read(SourceMarkers.snapshotEnd(EAST, epoch, 0, now, "test"));
  }

  private void pass(final Duration time) {
    now = now.plus(time);
  }

  /** Heartbeats, then the connectors silent for 2 min (longer than the staleness bound). */
  private void gap() {
    heartbeat();
    pass(Duration.ofMinutes(2));
  }

  private Optional<String> distrust() {
    return book.distrust(EAST, now);
  }

  @Test
  void aSnapshotStartedAfterTheGapClearsIt() {
    gap();
    heartbeat();
    assertThat(distrust()).hasValueSatisfying(why -> assertThat(why).contains("gap"));

    start(Duration.ZERO);
    pass(Duration.ofSeconds(1));
    final Optional<SnapshotStart> ended = end(now.minusSeconds(1).toEpochMilli());

    assertThat(distrust()).isEmpty();
    assertThat(ended).map(SnapshotStart::offset).contains(3L);
  }

  /**
   * The snapshot started before the connectors went silent: what the gap lost may be missing from
   * it. Its epoch (the connectors' clock, a little ahead) is later than the engine-side time of the
   * last marker before the gap, which cleared the gap before.
   */
  @Test
  void aSnapshotStartedBeforeTheGapDoesNotClearIt() {
    heartbeat();
    pass(Duration.ofSeconds(10));
    final long epoch = now.plusSeconds(2).toEpochMilli();
    start(Duration.ofSeconds(2));
    pass(Duration.ofMinutes(2));
    heartbeat();
    assertThat(distrust()).as("the gap").isPresent();

    final Optional<SnapshotStart> ended = end(epoch);

    assertThat(distrust()).as("the snapshot may miss what the gap lost").isPresent();
    assertThat(ended).as("it still drops what it did not re-send").isPresent();
    // The next snapshot, started after the gap, clears it.
    start(Duration.ofSeconds(2));
    end(now.plusSeconds(2).toEpochMilli());
    assertThat(distrust()).isEmpty();
  }

  /**
   * The connectors' clock 10 min behind: a snapshot started after the gap has an epoch older than
   * the last marker before it, and was taken for one started before.
   */
  @Test
  void aSnapshotStartedAfterTheGapClearsItWhateverTheConnectorsClock() {
    gap();
    heartbeat();
    final long epoch = now.minus(Duration.ofMinutes(10)).toEpochMilli();
    start(Duration.ofMinutes(-10));

    end(epoch);

    assertThat(distrust()).isEmpty();
  }

  @Test
  void aNewGapBetweenTheStartAndTheEndKeepsTheKindWaiting() {
    gap();
    heartbeat();
    start(Duration.ZERO);
    final long epoch = now.toEpochMilli();
    pass(Duration.ofMinutes(2));
    heartbeat();

    end(epoch);

    assertThat(distrust()).isPresent();
  }

  /**
   * Issue 40, point 6: the task re-created between the start (read after the gap) and the end, as
   * after a rebalance or a crash; it restores its stores and reads on from its committed offset.
   */
  @Test
  void aTaskReCreatedBetweenTheStartAndTheEndClearsTheGapAndDropsWhatWasNotReSent() {
    gap();
    heartbeat();
    start(Duration.ZERO);
    final long epoch = now.toEpochMilli();
    final long startOffset = offset;

    book = recreated();
    assertThat(distrust()).as("restored: still waiting").isPresent();
    final Optional<SnapshotStart> ended = end(epoch);

    assertThat(ended).contains(new SnapshotStart(epoch, TOPIC, 0, startOffset));
    assertThat(distrust()).isEmpty();
  }

  @Test
  void aTaskReCreatedAfterAStartReadBeforeTheGapStillDoesNotClearIt() {
    heartbeat();
    start(Duration.ZERO);
    final long epoch = now.toEpochMilli();
    pass(Duration.ofMinutes(2));
    heartbeat();

    book = recreated();
    end(epoch);

    assertThat(distrust()).isPresent();
  }

  /** The start marker before the records this task read: the end clears nothing, drops nothing. */
  @Test
  void anEndWhoseStartThisTaskDidNotReadClearsNothing() {
    gap();
    heartbeat();

    final Optional<SnapshotStart> ended = end(now.toEpochMilli());

    assertThat(ended).isEmpty();
    assertThat(distrust()).as("waits for the next full snapshot").isPresent();
    start(Duration.ZERO);
    end(now.toEpochMilli());
    assertThat(distrust()).isEmpty();
  }

  /**
   * A re-created task re-reads records after its committed offset that its restored store already
   * holds (at least once): the start read again is the same start, and keeps what it knew.
   */
  @Test
  void aStartReadAgainAfterARecreationKeepsWhatTheTaskKnewOfIt() {
    gap();
    heartbeat();
    start(Duration.ZERO);
    final long epoch = now.toEpochMilli();
    final long startOffset = offset;
    pass(Duration.ofMinutes(2));
    heartbeat(); // a new gap: this snapshot no longer covers

    book = recreated();
    readAt(
        SourceMarkers.snapshotStart(EAST, epoch, Instant.ofEpochMilli(epoch), "test"), startOffset);
    end(epoch);

    assertThat(distrust()).isPresent();
  }
}
