package io.quotaflow.engine.freshness;

import io.quotaflow.engine.devices.ClusterDevices;
import io.quotaflow.engine.store.InputId;
import io.quotaflow.engine.store.InputId.InputKind;
import io.quotaflow.schemas.SourceMarker;
import io.quotaflow.schemas.internal.InputFreshness;
import io.quotaflow.schemas.internal.SnapshotInProgress;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How fresh the inputs of each cluster of one task are, from the connectors' markers (see {@link
 * SourceMarker}), and whether the engine may act on them (docs/reliability.md):
 *
 * <ul>
 *   <li>a cluster is <b>stale</b> while the newest marker of one of its input kinds is older than
 *       {@code maxStaleness} (the connectors cannot write, cannot watch, or the engine is behind);
 *   <li>a <b>gap</b> between two markers of a kind longer than {@code maxStaleness} means the
 *       connectors were not writing for a while and changes may be lost: the kind then waits for
 *       the end of a snapshot whose start this task read after the gap was seen (processing order,
 *       not the connectors' clock against the engine's: issue 40) with no new gap since;
 *   <li>a cluster is <b>trusted</b> when none of its kinds is stale or waiting; a cluster whose
 *       inputs never carried a marker is trusted only when markers are not required;
 *   <li>an optional kind (the DRA objects) counts once the cluster published a marker of it, until
 *       the connectors say with a {@code RETIRED} marker that they no longer watch it (issue
 *       40.13): its entry is then forgotten, and the kind counts again from its next marker.
 * </ul>
 *
 * <p>Backed by the {@code input-freshness} store, so a restarted task knows where it was, snapshots
 * in progress included: a task re-created between a snapshot's start and its end (rebalance, crash)
 * still clears the gap and drops what the snapshot did not re-send. An end whose start no task read
 * clears and drops nothing: the kind waits for the next full snapshot.
 */
public final class InputFreshnessBook {
  private static final Logger LOG = LoggerFactory.getLogger(InputFreshnessBook.class);

  /**
   * Where a snapshot started: its epoch and the offset of its start marker on its partition.
   *
   * @param epoch the snapshot's epoch
   * @param topic the input topic
   * @param partition the partition
   * @param offset the start marker's offset
   */
  public record SnapshotStart(long epoch, String topic, int partition, long offset) {}

  private final KeyValueStore<InputId, InputFreshness> store;
  private final Duration maxStaleness;
  private final boolean markersRequired;
  private final Map<String, Map<InputKind, InputFreshness>> clusters = new HashMap<>();
  private final Map<String, Duration> skews = new HashMap<>();

  /**
   * @param store the input-freshness store
   * @param maxStaleness how old the newest marker of a kind may be, and the longest gap between two
   * @param markersRequired whether a cluster without markers is not trusted
   */
  public InputFreshnessBook(
      final KeyValueStore<InputId, InputFreshness> store,
      final Duration maxStaleness,
      final boolean markersRequired) {
    this.store = Objects.requireNonNull(store, "store");
    this.maxStaleness = Objects.requireNonNull(maxStaleness, "maxStaleness");
    this.markersRequired = markersRequired;
  }

  /** Reads the store again, snapshots in progress included. */
  public void restore() {
    clusters.clear();
    try (KeyValueIterator<InputId, InputFreshness> all = store.all()) {
      while (all.hasNext()) {
        final KeyValue<InputId, InputFreshness> entry = all.next();
        kinds(entry.key.cluster()).put(entry.key.kind(), entry.value);
      }
    }
  }

  /**
   * A marker of {@code cluster}'s inputs of {@code kind}, read at {@code offset} of {@code topic}'s
   * {@code partition}.
   *
   * <p>One clock (issue 40): the marker counts as of the time its record was appended (the record's
   * timestamp: the broker's with log-append time, else the producer's), and never later than the
   * engine's clock when read. The connector's own stamp ({@code marker.at}) only measures how far
   * its clock is off ({@link #skew}): a connector clock ahead made a cluster look fresh for as long
   * as it was ahead after its connectors went quiet, and after such a clock stepped back every
   * heartbeat, older than the last one, was ignored until the clock caught up.
   *
   * @param appendedAt the record's timestamp, epoch milliseconds (negative: unknown, the stamp is
   *     used)
   * @param now the engine's clock when the marker is read, epoch milliseconds
   * @return for a snapshot end whose start this task read (before or after it was re-created):
   *     where that start was, so the inputs not re-sent since can be dropped
   */
  public Optional<SnapshotStart> marker(
      final String cluster,
      final InputKind kind,
      final SourceMarker marker,
      final String topic,
      final int partition,
      final long offset,
      final long appendedAt,
      final long now) {
    final InputId id = id(cluster, kind);
    final long stamped = marker.getAt().toEpochMilli();
    final long at = Math.min(appendedAt >= 0 ? appendedAt : stamped, now);
    skews.put(cluster, Duration.ofMillis(stamped - at));
    switch (marker.getKind()) {
      case HEARTBEAT -> heartbeat(id, at);
      case SNAPSHOT_START -> {
        heartbeat(id, at);
        snapshotStarted(id, new SnapshotStart(marker.getEpoch(), topic, partition, offset));
      }
      case SNAPSHOT_END -> {
        heartbeat(id, at);
        return snapshotEnded(id, marker.getEpoch(), at);
      }
      case RETIRED -> retired(id);
      case FORGOTTEN -> forgotten(id);
      case UNKNOWN -> LOG.debug("cluster {}: ignoring a marker of unknown kind", cluster);
    }
    return Optional.empty();
  }

  /** Whether the engine may act on {@code cluster}'s inputs at {@code now} (see the class). */
  public boolean trusted(final String cluster, final Instant now) {
    return distrust(cluster, now).isEmpty();
  }

  /** Why the engine may not act on {@code cluster}'s inputs at {@code now}; empty when it may. */
  public Optional<String> distrust(final String cluster, final Instant now) {
    final Map<InputKind, InputFreshness> kinds = clusters.get(cluster);
    // Markers of the optional kinds alone (DRA) do not make a cluster one with markers.
    if (kinds == null || kinds.keySet().stream().allMatch(InputFreshnessBook::isOptional)) {
      return markersRequired
          ? Optional.of("no heartbeat from the connectors was read for the cluster")
          : Optional.empty();
    }
    for (final Map.Entry<InputKind, InputFreshness> entry : kinds.entrySet()) {
      if (!judgesTrust(entry.getKey())) {
        continue;
      }
      final InputFreshness freshness = entry.getValue();
      if (freshness.getSuspendedSince() >= 0) {
        return Optional.of(
            "the "
                + entry.getKey().name().toLowerCase()
                + " inputs had a gap after "
                + Instant.ofEpochMilli(freshness.getSuspendedSince())
                + " and wait for the connectors' next snapshot");
      }
      final Duration age = Duration.between(freshness.getHeartbeatAt(), now);
      if (age.compareTo(maxStaleness) > 0) {
        return Optional.of(
            "the newest "
                + entry.getKey().name().toLowerCase()
                + " heartbeat is "
                + age.toSeconds()
                + " s old (inputs.max.staleness "
                + maxStaleness.toSeconds()
                + " s)");
      }
    }
    return Optional.empty();
  }

  /** How old the oldest newest marker of {@code cluster}'s kinds is at {@code now}, if any. */
  public Optional<Duration> staleness(final String cluster, final Instant now) {
    final Map<InputKind, InputFreshness> kinds = clusters.get(cluster);
    if (kinds == null || kinds.isEmpty()) {
      return Optional.empty();
    }
    final Optional<Instant> oldest =
        kinds.entrySet().stream()
            .filter(entry -> judgesTrust(entry.getKey()))
            .map(entry -> entry.getValue().getHeartbeatAt())
            .min(Instant::compareTo);
    if (oldest.isEmpty()) {
      return Optional.empty();
    }
    final Duration age = Duration.between(oldest.get(), now);
    return Optional.of(age.isNegative() ? Duration.ZERO : age);
  }

  /**
   * How far ahead of its record's time (at most the engine's clock) the newest marker of {@code
   * cluster} was stamped by its connectors: their clock's skew against the broker's with
   * log-append-time inputs, against the engine's when ahead of it; empty before a marker was read.
   */
  public Optional<Duration> skew(final String cluster) {
    return Optional.ofNullable(skews.get(cluster));
  }

  /** Forgets a cluster this task no longer holds (its store entries stay with the task's store). */
  public void forget(final String cluster) {
    clusters.remove(cluster);
    skews.remove(cluster);
  }

  /**
   * The connectors no longer watch the kind (turned off, or no longer served): it stops counting
   * for trust, until its next marker. Ignored for a kind the quotas cannot do without.
   */
  private void retired(final InputId id) {
    if (!isOptional(id.kind())) {
      LOG.warn(
          "cluster {}: ignoring a marker retiring its {} inputs, which the quotas need",
          id.cluster(),
          id.kind());
      return;
    }
    if (kinds(id.cluster()).remove(id.kind()) != null) {
      LOG.info(
          "cluster {}: its {} inputs are no longer watched; their freshness no longer decides"
              + " whether reclaim runs",
          id.cluster(),
          id.kind());
    }
    store.delete(id);
  }

  /**
   * The cluster was forgotten ({@code quotaflow cluster forget}): its freshness of the kind starts
   * afresh, as a new cluster's, from its next marker.
   */
  private void forgotten(final InputId id) {
    kinds(id.cluster()).remove(id.kind());
    store.delete(id);
  }

  private void heartbeat(final InputId id, final long at) {
    final InputFreshness previous = kinds(id.cluster()).get(id.kind());
    final InputFreshness next;
    if (previous == null) {
      // The first marker read of this kind: the task read its inputs from their start (a compacted
      // topic holds every live object), so nothing before it is known to be missing.
      next = new InputFreshness(Instant.ofEpochMilli(at), -1L, -1L, null);
    } else {
      final long last = previous.getHeartbeatAt().toEpochMilli();
      if (at <= last) {
        return; // an older marker (two writers, records read out of order): keeps the newest
      }
      long suspendedSince = previous.getSuspendedSince();
      SnapshotInProgress started = previous.getSnapshotStarted().orElse(null);
      if (at - last > maxStaleness.toMillis()) {
        LOG.warn(
            "cluster {}: no {} marker between {} and {}: changes may be lost, reclaim waits for"
                + " the connectors' next snapshot",
            id.cluster(),
            id.kind(),
            Instant.ofEpochMilli(last),
            Instant.ofEpochMilli(at));
        if (suspendedSince < 0) {
          suspendedSince = last;
        }
        if (started != null && started.getAfterGap()) {
          // A snapshot under way since before this gap may miss what it lost.
          started = copy(started, false);
        }
      }
      next =
          new InputFreshness(
              Instant.ofEpochMilli(at), suspendedSince, previous.getSnapshotAt(), started);
    }
    put(id, next);
  }

  /**
   * Keeps the snapshot started, noting whether its start was read after a gap was seen: only then
   * does its end cover what the gap lost. Decided by the order this task read the markers in, not
   * by the snapshot's epoch (the connectors' clock) against the time before the gap (the records').
   */
  private void snapshotStarted(final InputId id, final SnapshotStart start) {
    final InputFreshness current = kinds(id.cluster()).get(id.kind());
    final Optional<SnapshotInProgress> known = current.getSnapshotStarted();
    if (known.isPresent() && start.equals(of(known.get()))) {
      // The same start read again (a re-created task re-reads what followed its last commit):
      // what was learnt since (a new gap) stands.
      return;
    }
    final boolean afterGap = current.getSuspendedSince() >= 0;
    put(
        id,
        new InputFreshness(
            current.getHeartbeatAt(),
            current.getSuspendedSince(),
            current.getSnapshotAt(),
            new SnapshotInProgress(
                start.epoch(), start.topic(), start.partition(), start.offset(), afterGap)));
  }

  private Optional<SnapshotStart> snapshotEnded(final InputId id, final long epoch, final long at) {
    final InputFreshness current = kinds(id.cluster()).get(id.kind());
    final long suspendedSince = current.getSuspendedSince();
    final Optional<SnapshotInProgress> started =
        current.getSnapshotStarted().filter(start -> start.getEpoch() == epoch);
    if (started.isEmpty()) {
      // Its start came before the records this task read (or another snapshot started since):
      // whatever it re-sent, what came before its start is unknown.
      LOG.info(
          "cluster {}: snapshot {} of its {} inputs ended but this task did not read its start:"
              + " nothing dropped{}",
          id.cluster(),
          epoch,
          id.kind(),
          suspendedSince >= 0
              ? ", and the gap after "
                  + Instant.ofEpochMilli(suspendedSince)
                  + " waits for the next full snapshot"
              : "");
      return Optional.empty();
    }
    final boolean clears = suspendedSince >= 0 && started.get().getAfterGap();
    if (clears) {
      LOG.info(
          "cluster {}: snapshot {} of its {} inputs read, reclaim may resume",
          id.cluster(),
          epoch,
          id.kind());
    } else if (suspendedSince >= 0) {
      LOG.info(
          "cluster {}: snapshot {} of its {} inputs started before the gap after {} was seen (or"
              + " another gap came since): it may miss what was lost, reclaim waits for the next"
              + " snapshot",
          id.cluster(),
          epoch,
          id.kind(),
          Instant.ofEpochMilli(suspendedSince));
    }
    put(id, new InputFreshness(current.getHeartbeatAt(), clears ? -1L : suspendedSince, at, null));
    return started.map(InputFreshnessBook::of);
  }

  private static SnapshotStart of(final SnapshotInProgress start) {
    return new SnapshotStart(
        start.getEpoch(), start.getTopic(), start.getPartition(), start.getOffset());
  }

  private static SnapshotInProgress copy(final SnapshotInProgress start, final boolean afterGap) {
    return new SnapshotInProgress(
        start.getEpoch(), start.getTopic(), start.getPartition(), start.getOffset(), afterGap);
  }

  private void put(final InputId id, final InputFreshness value) {
    kinds(id.cluster()).put(id.kind(), value);
    store.put(id, value);
  }

  private Map<InputKind, InputFreshness> kinds(final String cluster) {
    return clusters.computeIfAbsent(cluster, c -> new EnumMap<>(InputKind.class));
  }

  /**
   * Whether the freshness of {@code kind}, once a marker of it was read, decides whether the engine
   * may act: every input of the quotas, the DRA objects included (a claim's devices are counted
   * from them: issue 40.13). A DRA kind has a freshness entry only while its connectors watch it:
   * they retire it with a marker when they stop ({@link #retired}). PodGroups do not count (pods
   * carry their gang's minMember, and the same watch writes both, so the pods' markers already stop
   * when it is down): their markers only bound their snapshots, and PodGroups no longer written
   * (connectors rolled back) suspend nothing.
   */
  public static boolean judgesTrust(final InputKind kind) {
    return kind != InputKind.PODGROUP;
  }

  /** Whether the connectors may stop watching {@code kind} (and retire it): DRA and PodGroups. */
  static boolean isOptional(final InputKind kind) {
    return kind == InputKind.PODGROUP || ClusterDevices.isDra(kind);
  }

  /** The store key of a cluster's freshness of one kind. */
  public static InputId id(final String cluster, final InputKind kind) {
    return new InputId(cluster, kind, "", "");
  }
}
