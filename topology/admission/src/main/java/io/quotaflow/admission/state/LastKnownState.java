package io.quotaflow.admission.state;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last state this instance read of each cluster it held, kept so that requests can still be
 * answered, with their staleness stated, while the stores cannot be read (a rebalance, a task
 * migrating or restoring). It also copies the clusters whose standby replica this instance keeps
 * (issue 40.10), so that it can answer for them when their owner dies: such a copy is dated by the
 * newest connectors' heartbeat it holds, not by when it was read, since a standby shows the owner's
 * state only as far as the owner wrote it. Each cluster's {@link ClusterSnapshot} is replaced by
 * {@link #refresh} (copy-on-write, sharing the previous copy's unchanged parts): a request reads
 * one map entry and the clock, without locks. A state older than {@code maxStaleness} is not
 * answered from. Thread-safe.
 */
public final class LastKnownState {

  private static final Logger LOG = LoggerFactory.getLogger(LastKnownState.class);

  /** What is known of a cluster's last state. */
  public sealed interface Recall {}

  /**
   * A state young enough to answer from.
   *
   * @param view the state
   * @param staleness its age now
   */
  public record Usable(ClusterSnapshot view, Staleness staleness) implements Recall {}

  /**
   * A state older than the allowed staleness.
   *
   * @param staleness its age now
   * @param maxStaleness the allowed staleness
   */
  public record TooOld(Staleness staleness, Duration maxStaleness) implements Recall {}

  /** No state of the cluster was ever read here. */
  public record Unknown() implements Recall {}

  private final Clock clock;
  private final Duration maxStaleness;
  private final Map<String, ClusterSnapshot> snapshots = new ConcurrentHashMap<>();

  /**
   * @param clock the clock ages are measured with
   * @param maxStaleness the oldest state answered from
   */
  public LastKnownState(Clock clock, Duration maxStaleness) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.maxStaleness = Objects.requireNonNull(maxStaleness, "maxStaleness");
  }

  /** The oldest state answered from. */
  public Duration maxStaleness() {
    return maxStaleness;
  }

  /** What is known of {@code cluster}'s state, aged by the clock now. */
  public Recall recall(String cluster) {
    final ClusterSnapshot snapshot = snapshots.get(cluster);
    if (snapshot == null) {
      return new Unknown();
    }
    final Staleness staleness = Staleness.at(snapshot.asOf(), clock.instant());
    return staleness.age().compareTo(maxStaleness) <= 0
        ? new Usable(snapshot, staleness)
        : new TooOld(staleness, maxStaleness);
  }

  /** The age now of {@code cluster}'s last state, if one was read. */
  public Optional<Staleness> staleness(String cluster) {
    final ClusterSnapshot snapshot = snapshots.get(cluster);
    return snapshot == null
        ? Optional.empty()
        : Optional.of(Staleness.at(snapshot.asOf(), clock.instant()));
  }

  /** The last state of {@code cluster} read here, whatever its age. */
  public Optional<ClusterSnapshot> snapshot(String cluster) {
    return Optional.ofNullable(snapshots.get(cluster));
  }

  /** The clusters whose last state is kept. */
  public Set<String> clusters() {
    return Set.copyOf(snapshots.keySet());
  }

  /** Copies {@code view} as {@code cluster}'s last state, read now. */
  public void remember(String cluster, ClusterView view) {
    remember(cluster, view, clock.instant());
  }

  /**
   * {@link #remember(String, ClusterView)} of a view read from {@code asOf} on. The new copy reuses
   * the parts of the previous one that equal what is read now (see {@link SnapshotReuse}); it is
   * stamped {@code asOf} whole, reused parts included, since they are what the stores hold now.
   */
  private void remember(String cluster, ClusterView view, Instant asOf) {
    snapshots.put(
        cluster, ClusterSnapshot.capture(view, asOf, Optional.ofNullable(snapshots.get(cluster))));
  }

  /**
   * Reads again the state of every cluster {@code reader} holds here, and the standby copies it
   * keeps; keeps the last state of the others (they may be moving) until it is too old to answer
   * from, then forgets it. Never throws: a cluster that cannot be read keeps its last state, which
   * ages; while the stores cannot even be listed, every last state is kept.
   */
  public void refresh(ClusterStateReader reader) {
    final List<String> local;
    try {
      local = reader.localClusters();
    } catch (StateUnavailableException e) {
      LOG.debug("the stores cannot be listed now: {}", e.getMessage());
      return;
    } catch (RuntimeException e) {
      LOG.warn("the stores could not be listed for the last state", e);
      return;
    }
    for (final String cluster : local) {
      try {
        if (reader.owner(cluster) instanceof Ownership.Local) {
          // The time before the stores are read: a state stamped after the read would look
          // younger than it is by the read's time, or by a rebalance that began meanwhile.
          final Instant asOf = clock.instant();
          reader.cluster(cluster).ifPresent(view -> remember(cluster, view, asOf));
        }
      } catch (StateUnavailableException e) {
        LOG.debug("cluster={} keeps its last state: {}", cluster, e.getMessage());
      } catch (RuntimeException e) {
        LOG.warn("cluster={} last state could not be read", cluster, e);
      }
    }
    final List<String> copied = refreshStandbys(reader, local);
    final Instant now = clock.instant();
    snapshots
        .entrySet()
        .removeIf(
            entry ->
                !local.contains(entry.getKey())
                    && !copied.contains(entry.getKey())
                    && Staleness.at(entry.getValue().asOf(), now).age().compareTo(maxStaleness)
                        > 0);
  }

  /**
   * Copies the clusters whose standby replica is kept here, each dated {@code min(read time,
   * heartbeat)}: the oldest of the newest heartbeats of its inputs the copy holds, the same age a
   * live answer is judged stale by. A copy without any heartbeat cannot be dated and is not kept.
   * Never throws.
   *
   * @return the clusters copied
   */
  private List<String> refreshStandbys(ClusterStateReader reader, List<String> local) {
    final List<String> standbys;
    try {
      standbys = reader.standbyClusters();
    } catch (StateUnavailableException e) {
      LOG.debug("the standby replicas cannot be listed now: {}", e.getMessage());
      return List.of();
    } catch (RuntimeException e) {
      LOG.warn("the standby replicas could not be listed for the last state", e);
      return List.of();
    }
    final List<String> copied = new java.util.ArrayList<>();
    for (final String cluster : standbys) {
      if (local.contains(cluster)) {
        continue;
      }
      try {
        final Instant readAt = clock.instant();
        final Optional<ClusterView> view = reader.standbyCluster(cluster);
        final Optional<Instant> heartbeat =
            view.isEmpty() ? Optional.empty() : view.get().inputsAsOf();
        if (heartbeat.isPresent()) {
          final Instant asOf = heartbeat.get().isBefore(readAt) ? heartbeat.get() : readAt;
          remember(cluster, view.get(), asOf);
          copied.add(cluster);
        }
      } catch (StateUnavailableException e) {
        LOG.debug("cluster={} keeps its standby copy: {}", cluster, e.getMessage());
      } catch (RuntimeException e) {
        LOG.warn("cluster={} standby copy could not be read", cluster, e);
      }
    }
    return copied;
  }
}
