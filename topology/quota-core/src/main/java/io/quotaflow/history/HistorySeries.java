package io.quotaflow.history;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A group's history over a period as steps, from the windows the engine kept (section 23): each
 * stored window without a record of its own holds the levels in force since the last record before
 * it, so the steps' integrals are exact whatever the step, as long as it is a multiple of the
 * stored one.
 */
public final class HistorySeries {

  private HistorySeries() {}

  /**
   * The steps of {@code step} over {@code [from, to)}, the last cut short at {@code now} when the
   * period reaches into the future (nothing after {@code now}).
   *
   * @param from the first step's start, a multiple of {@code step} since the epoch
   * @param storedStep the step the windows were kept at
   * @param inForce the levels in force at {@code from} (of the last window before it; {@link
   *     GroupLevels#NONE} when none was kept)
   * @param windows the windows kept that start in {@code [from, to)}, by start
   * @throws IllegalArgumentException when {@code step} is not a positive multiple of {@code
   *     storedStep}, or {@code from} not a multiple of {@code step}
   */
  public static List<HistoryStep> steps(
      Instant from,
      Instant to,
      Duration step,
      Duration storedStep,
      GroupLevels inForce,
      List<HistoryWindow> windows,
      Instant now) {
    Objects.requireNonNull(inForce, "inForce");
    final long stored = storedStep.toMillis();
    final long each = step.toMillis();
    if (stored <= 0 || each <= 0 || each % stored != 0) {
      throw new IllegalArgumentException(
          "the step ("
              + step
              + ") must be a positive multiple of the stored step ("
              + storedStep
              + ")");
    }
    if (from.toEpochMilli() % each != 0) {
      throw new IllegalArgumentException(
          "the period must start at a multiple of the step: " + from);
    }
    return series(from, to, step, storedStep, inForce, windows, now);
  }

  /**
   * The totals over {@code [from, to)} as one step, the period's ends multiples of {@code
   * storedStep}, cut short at {@code now}: a report's figures.
   */
  public static HistoryStep total(
      Instant from,
      Instant to,
      Duration storedStep,
      GroupLevels inForce,
      List<HistoryWindow> windows,
      Instant now) {
    final long stored = storedStep.toMillis();
    if (stored <= 0 || from.toEpochMilli() % stored != 0 || to.toEpochMilli() % stored != 0) {
      throw new IllegalArgumentException(
          "a report's period must start and end at multiples of the stored step ("
              + storedStep
              + ")");
    }
    if (!to.isAfter(from)) {
      throw new IllegalArgumentException("a report's period must end after it starts");
    }
    final List<HistoryStep> one =
        series(from, to, Duration.between(from, to), storedStep, inForce, windows, now);
    return one.isEmpty()
        ? new HistoryStep(from, from, LevelIntegrals.zero(), Map.of(), Map.of())
        : one.get(0);
  }

  /**
   * The steps, walking the kept windows rather than every stored window: a run of windows without a
   * record holds the carried levels for its whole length, so it is one product.
   */
  private static List<HistoryStep> series(
      Instant from,
      Instant to,
      Duration step,
      Duration storedStep,
      GroupLevels inForce,
      List<HistoryWindow> windows,
      Instant now) {
    final long stored = storedStep.toMillis();
    final Instant end = to.isAfter(now) ? now : to;
    final List<HistoryStep> steps = new ArrayList<>();
    final Iterator<HistoryWindow> kept = windows.iterator();
    HistoryWindow next = kept.hasNext() ? kept.next() : null;
    while (next != null && next.start().isBefore(from)) {
      next = kept.hasNext() ? kept.next() : null;
    }
    GroupLevels carried = inForce;
    for (Instant stepStart = from; stepStart.isBefore(end); stepStart = stepStart.plus(step)) {
      final Instant stepEnd = min(stepStart.plus(step), end);
      LevelIntegrals integrals = LevelIntegrals.zero();
      final Map<String, Long> evictions = new TreeMap<>();
      final Map<String, Long> denials = new TreeMap<>();
      Instant cursor = stepStart;
      while (next != null && next.start().isBefore(stepEnd)) {
        integrals = integrals.plus(carried, millis(cursor, next.start()));
        final Instant windowEnd = min(next.start().plusMillis(stored), stepEnd);
        integrals = integrals.plus(next.through(windowEnd));
        next.evictions().forEach((reason, count) -> evictions.merge(reason, count, Long::sum));
        next.denials().forEach((reason, count) -> denials.merge(reason, count, Long::sum));
        carried = next.last();
        cursor = windowEnd;
        next = kept.hasNext() ? kept.next() : null;
      }
      integrals = integrals.plus(carried, millis(cursor, stepEnd));
      steps.add(new HistoryStep(stepStart, stepEnd, integrals, evictions, denials));
    }
    return steps;
  }

  private static long millis(Instant from, Instant to) {
    return Math.max(0, to.toEpochMilli() - from.toEpochMilli());
  }

  private static Instant min(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }
}
