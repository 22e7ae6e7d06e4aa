package io.quotaflow.history;

import java.math.BigInteger;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A group's history over one step of a query: {@code [start, end)}, its integrals and the evictions
 * and denials counted in it.
 *
 * @param start the step's start
 * @param end its end (exclusive); before {@code start + step} for a step cut short by the present
 * @param integrals the levels' integrals over the step, in unit-milliseconds
 * @param evictions the evictions commanded in the step, by reason code
 * @param denials the pods turned away in the step, by reason code
 */
public record HistoryStep(
    Instant start,
    Instant end,
    LevelIntegrals integrals,
    Map<String, Long> evictions,
    Map<String, Long> denials) {

  public HistoryStep {
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(end, "end");
    Objects.requireNonNull(integrals, "integrals");
    evictions = Collections.unmodifiableMap(new TreeMap<>(evictions));
    denials = Collections.unmodifiableMap(new TreeMap<>(denials));
    if (end.isBefore(start)) {
      throw new IllegalArgumentException("a step ending at " + end + " before " + start);
    }
  }

  /** The step's length in milliseconds. */
  public long millis() {
    return end.toEpochMilli() - start.toEpochMilli();
  }

  /**
   * The time-weighted average of {@code metric} in {@code resource} over the step, in canonical
   * units, rounded down (toward zero: levels are never negative); 0 for an empty step.
   */
  public long average(String resource, HistoryMetric metric) {
    final long millis = millis();
    return millis == 0
        ? 0
        : integrals.get(resource, metric).divide(BigInteger.valueOf(millis)).longValueExact();
  }
}
