package io.quotaflow.engine;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Decides at each recompute tick whether a dirty cluster is recomputed now. It is, unless the
 * engine is working through a backlog of that cluster's events (it read, within the last backlog
 * interval, an event older than the backlog interval) and holds it back: the states a backlog
 * passes through are stale by the time they are computed, and each computed state is written out
 * (runtime records, pod classes, their store changelogs), so recomputing less often writes less and
 * leaves the time to catching up.
 *
 * <p>How long it holds a cluster back grows with how stale the backlog is, the age {@code A} of the
 * newest event read since the last recomputation (a state already {@code A} old gains nothing from
 * being written again much sooner than that):
 *
 * <ul>
 *   <li>it is recomputed at least once per {@code A / 2}, bounded to [backlog interval, maximum
 *       interval];
 *   <li>and as soon as no event of it arrived for {@code A / 20}, bounded to [0, backlog interval]:
 *       that is the end of its backlog, which is never held back longer. (A short pause while the
 *       consumer fetches the next batch of a long backlog is not taken for its end: the pause
 *       needed grows with the backlog's age.) For a backlog a few seconds old that is the next tick
 *       without events, as for fresh events.
 * </ul>
 *
 * <p>The pacing of an episode starts with its first backlog event, so a backlog read in a moment
 * (inputs published before the engine started) is computed once, complete. Fresh events (no
 * backlog) are recomputed at every tick.
 *
 * <p>It also tells whether a cluster has caught up with its inputs: no event older than the backlog
 * interval was read in the last backlog interval. Until then its state is a partial or stale one (a
 * tree half loaded at start-up names dimensions that the rest of its pods would not), so the
 * reclaim check does not judge its groups. Owned by one stream thread.
 */
final class RecomputePacer {
  private final long backlogMillis;
  private final long maxMillis;
  private final Map<String, Pace> clusters = new HashMap<>();

  /**
   * @param backlogInterval how old an event must be to be part of a backlog, the least time between
   *     two recomputations of a cluster in a backlog, and the longest pause that ends one
   * @param maxInterval the longest a cluster in a backlog goes without a recomputation (at least
   *     {@code backlogInterval})
   */
  RecomputePacer(final Duration backlogInterval, final Duration maxInterval) {
    this.backlogMillis = backlogInterval.toMillis();
    this.maxMillis = Math.max(backlogMillis, maxInterval.toMillis());
  }

  /**
   * Notes an event of {@code cluster} with the given record timestamp, read at wall-clock time
   * {@code nowMillis}.
   */
  void arrived(final String cluster, final long eventMillis, final long nowMillis) {
    final Pace pace = clusters.computeIfAbsent(cluster, c -> new Pace());
    pace.newestEvent = Math.max(pace.newestEvent, eventMillis);
    pace.lastArrival = nowMillis;
    if (nowMillis - eventMillis > backlogMillis) {
      if (nowMillis - pace.lastBacklogRead > backlogMillis) {
        pace.episodeStart = nowMillis;
      }
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
    return !inBacklog(cluster, nowMillis);
  }

  /**
   * Whether the pacer holds {@code cluster} back at {@code nowMillis}: it is working through a
   * backlog whose end has not come, and was recomputed (or started it) less than the pacing
   * interval ago. Changes nothing.
   */
  boolean inBacklog(final String cluster, final long nowMillis) {
    final Pace pace = clusters.get(cluster);
    if (pace == null || nowMillis - pace.lastBacklogRead > backlogMillis) {
      return false;
    }
    final long age = pace.newestEvent == Long.MIN_VALUE ? 0 : nowMillis - pace.newestEvent;
    final long pause = clamp(age / 20, 0, backlogMillis);
    final long interval = clamp(age / 2, backlogMillis, maxMillis);
    return nowMillis - pace.lastArrival < pause
        && nowMillis - Math.max(pace.lastRecomputed, pace.episodeStart) < interval;
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

  private static long clamp(final long value, final long low, final long high) {
    return Math.max(low, Math.min(high, value));
  }

  private static final class Pace {
    private long newestEvent = Long.MIN_VALUE;
    private long lastRecomputed = Long.MIN_VALUE / 2;
    private long lastBacklogRead = Long.MIN_VALUE / 2;
    private long lastArrival = Long.MIN_VALUE / 2;
    private long episodeStart = Long.MIN_VALUE / 2;
  }
}
