package io.quotaflow.history;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What the history keeps of one group for one step window that saw a change: the integrals over the
 * window from its start to its last change, and the levels in force from that change on. The rest
 * of the window, and every following window without a change of its own, holds those levels, so one
 * record per changed window is enough for exact integrals over any period (section 23).
 *
 * @param start the window's start, a multiple of the step since the epoch
 * @param covered the integrals from {@code start} to {@code lastChange}
 * @param lastChange the time of the window's last change, in {@code [start, start + step)}
 * @param last the levels in force from {@code lastChange}
 * @param evictions the evictions of the group's pods commanded in the window, by reason code
 *     (section 19)
 * @param denials the group's pods the admission plugin turned away in the window, by reason code
 */
public record HistoryWindow(
    Instant start,
    LevelIntegrals covered,
    Instant lastChange,
    GroupLevels last,
    Map<String, Long> evictions,
    Map<String, Long> denials) {

  public HistoryWindow {
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(covered, "covered");
    Objects.requireNonNull(lastChange, "lastChange");
    Objects.requireNonNull(last, "last");
    evictions = Collections.unmodifiableMap(new TreeMap<>(evictions));
    denials = Collections.unmodifiableMap(new TreeMap<>(denials));
    if (lastChange.isBefore(start)) {
      throw new IllegalArgumentException("a change at " + lastChange + " before " + start);
    }
  }

  /** The start of the window of {@code step} that holds {@code at}. */
  public static Instant windowOf(Instant at, Duration step) {
    final long millis = at.toEpochMilli();
    return Instant.ofEpochMilli(Math.floorDiv(millis, step.toMillis()) * step.toMillis());
  }

  /**
   * The window that holds {@code at}, opened by its first change: {@code before} held from the
   * window's start to {@code at}, {@code after} from then on.
   */
  public static HistoryWindow opened(
      Instant at, Duration step, GroupLevels before, GroupLevels after) {
    final Instant start = windowOf(at, step);
    return new HistoryWindow(
        start,
        LevelIntegrals.zero().plus(before, millisBetween(start, at)),
        at,
        after,
        Map.of(),
        Map.of());
  }

  /**
   * This window after a further change at {@code at} to {@code after}. A change dated before the
   * last one (clocks of two engine instances after a rebalance) counts from the last change: the
   * levels are then in force for a moment less, never for a negative time.
   */
  public HistoryWindow changed(Instant at, GroupLevels after) {
    final Instant from = at.isBefore(lastChange) ? lastChange : at;
    return new HistoryWindow(
        start,
        covered.plus(last, millisBetween(lastChange, from)),
        from,
        after,
        evictions,
        denials);
  }

  /** This window with one more eviction for {@code reason}. */
  public HistoryWindow withEviction(String reason) {
    return new HistoryWindow(start, covered, lastChange, last, plusOne(evictions, reason), denials);
  }

  /** This window with one more denial for {@code reason}. */
  public HistoryWindow withDenial(String reason) {
    return new HistoryWindow(start, covered, lastChange, last, evictions, plusOne(denials, reason));
  }

  private static Map<String, Long> plusOne(Map<String, Long> counts, String reason) {
    final Map<String, Long> counted = new TreeMap<>(counts);
    counted.merge(reason, 1L, Long::sum);
    return counted;
  }

  /** The integrals over this window from its start to {@code end} (at least its last change). */
  public LevelIntegrals through(Instant end) {
    final Instant until = end.isBefore(lastChange) ? lastChange : end;
    return covered.plus(last, millisBetween(lastChange, until));
  }

  private static long millisBetween(Instant from, Instant to) {
    return to.toEpochMilli() - from.toEpochMilli();
  }
}
