package io.quotaflow.engine;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Decides at each recompute tick whether a dirty cluster is recomputed now. It is, unless the
 * engine is working through a backlog of that cluster's events: events arrived since the last tick,
 * the newest of them is older than the backlog interval, and the cluster was recomputed less than
 * that interval ago. The states a backlog passes through are stale by the time they are computed;
 * recomputing less often then writes fewer of them and leaves the time to catching up. Once a tick
 * passes without new events, the cluster is recomputed, so the end of a backlog is never held back.
 *
 * <p>It also tells whether a cluster has caught up with its inputs: no event older than the backlog
 * interval was read in the last backlog interval. Until then its state is a partial or stale one (a
 * tree half loaded at start-up names dimensions that the rest of its pods would not), so the
 * reclaim check does not judge its groups. Owned by one stream thread.
 */
final class RecomputePacer {
  private final long backlogMillis;
  private final Map<String, Pace> clusters = new HashMap<>();

  RecomputePacer(final Duration backlogInterval) {
    this.backlogMillis = backlogInterval.toMillis();
  }

  /**
   * Notes an event of {@code cluster} with the given record timestamp, read at wall-clock time
   * {@code nowMillis}.
   */
  void arrived(final String cluster, final long eventMillis, final long nowMillis) {
    final Pace pace = clusters.computeIfAbsent(cluster, c -> new Pace());
    pace.newestEvent = Math.max(pace.newestEvent, eventMillis);
    pace.arrivedSinceTick = true;
    if (nowMillis - eventMillis > backlogMillis) {
      pace.lastBacklogRead = Math.max(pace.lastBacklogRead, nowMillis);
    }
  }

  /**
   * Whether {@code cluster} has caught up with its inputs at {@code nowMillis}: no event of a
   * backlog (older than the backlog interval when read) was read within the last backlog interval.
   * Changes nothing.
   */
  boolean caughtUp(final String cluster, final long nowMillis) {
    final Pace pace = clusters.get(cluster);
    return pace == null || nowMillis - pace.lastBacklogRead > backlogMillis;
  }

  /** Whether dirty {@code cluster} is to be recomputed at this tick, {@code nowMillis}. */
  boolean due(final String cluster, final long nowMillis) {
    final Pace pace = clusters.get(cluster);
    if (pace == null) {
      return true;
    }
    final boolean arrived = pace.arrivedSinceTick;
    pace.arrivedSinceTick = false;
    return !(arrived && inBacklog(cluster, nowMillis));
  }

  /**
   * Whether {@code cluster} is working through a backlog and was recomputed within the interval:
   * its last result is as current as the pacer lets it be. Changes nothing.
   */
  boolean inBacklog(final String cluster, final long nowMillis) {
    final Pace pace = clusters.get(cluster);
    return pace != null
        && nowMillis - pace.newestEvent > backlogMillis
        && nowMillis - pace.lastRecomputed < backlogMillis;
  }

  /** Notes that {@code cluster} was recomputed at {@code nowMillis}. */
  void recomputed(final String cluster, final long nowMillis) {
    final Pace pace = clusters.computeIfAbsent(cluster, c -> new Pace());
    pace.lastRecomputed = nowMillis;
    pace.newestEvent = Long.MIN_VALUE;
  }

  /** Forgets every cluster (the task starts again). */
  void clear() {
    clusters.clear();
  }

  private static final class Pace {
    private long newestEvent = Long.MIN_VALUE;
    private long lastRecomputed = Long.MIN_VALUE / 2;
    private long lastBacklogRead = Long.MIN_VALUE / 2;
    private boolean arrivedSinceTick;
  }
}
