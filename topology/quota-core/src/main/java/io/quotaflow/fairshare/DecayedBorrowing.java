package io.quotaflow.fairshare;

import io.quotaflow.history.GroupLevels;
import io.quotaflow.history.HistoryMetric;
import io.quotaflow.history.HistoryWindow;
import io.quotaflow.quota.ResourceList;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * One group's borrowing, decayed (docs/semantics.md section 24): per resource, the integral of
 * {@code borrowed = max(used - min, 0)} over the history's step windows, each step's older value
 * multiplied by the {@link HalfLife}'s factor, through {@code foldedThrough}; and the borrowed
 * level at that instant, which holds through the following windows without a history record of
 * their own (section 23). Immutable.
 *
 * @param foldedThrough the end of the last window folded in, a multiple of the step
 * @param decayed per resource, the decayed integral in unit-milliseconds (non-zero only)
 * @param lastBorrowed per resource, the borrowed level at {@code foldedThrough}
 */
public record DecayedBorrowing(
    Instant foldedThrough, Map<String, BigInteger> decayed, ResourceList lastBorrowed) {

  public DecayedBorrowing {
    Objects.requireNonNull(foldedThrough, "foldedThrough");
    decayed = Collections.unmodifiableMap(new TreeMap<>(decayed));
    Objects.requireNonNull(lastBorrowed, "lastBorrowed");
    for (final BigInteger value : decayed.values()) {
      if (value.signum() < 0) {
        throw new IllegalArgumentException("a negative decayed borrowing: " + decayed);
      }
    }
  }

  /** No borrowing yet: the next fold starts at {@code from} with {@code levels} in force. */
  public static DecayedBorrowing startingAt(Instant from, GroupLevels levels) {
    return new DecayedBorrowing(from, Map.of(), borrowed(levels));
  }

  /** The borrowed level of each resource of {@code levels}, zeros left out. */
  public static ResourceList borrowed(GroupLevels levels) {
    final ResourceList.Builder builder = ResourceList.builder();
    for (final String resource : levels.resources()) {
      final long level = levels.level(HistoryMetric.BORROWED, resource);
      if (level > 0) {
        builder.put(resource, level);
      }
    }
    return builder.build();
  }

  /**
   * This borrowing with every whole window from {@code foldedThrough} up to {@code end} folded in,
   * one step at a time: the integral of a window with a record is the record's, through the
   * window's end; a window without one holds {@code lastBorrowed} for the whole step.
   *
   * @param end a multiple of the step, not before {@code foldedThrough}
   * @param windowAt the history's record of the window starting at an instant, if it has one
   */
  public DecayedBorrowing foldThrough(
      Instant end, HalfLife halfLife, Function<Instant, Optional<HistoryWindow>> windowAt) {
    final Duration step = Duration.ofMillis(halfLife.stepMillis());
    Map<String, BigInteger> values = new TreeMap<>(decayed);
    ResourceList last = lastBorrowed;
    Instant start = foldedThrough;
    while (start.plus(step).compareTo(end) <= 0) {
      final Instant windowEnd = start.plus(step);
      final Optional<HistoryWindow> window = windowAt.apply(start);
      final Map<String, BigInteger> integrals = new TreeMap<>();
      if (window.isPresent()) {
        final var through = window.get().through(windowEnd);
        for (final String resource : through.resources()) {
          integrals.put(resource, through.get(resource, HistoryMetric.BORROWED));
        }
        last = borrowed(window.get().last());
      } else {
        final BigInteger millis = BigInteger.valueOf(step.toMillis());
        for (final String resource : last.names()) {
          integrals.put(resource, BigInteger.valueOf(last.get(resource)).multiply(millis));
        }
      }
      final Set<String> resources = new TreeSet<>(values.keySet());
      resources.addAll(integrals.keySet());
      final Map<String, BigInteger> next = new TreeMap<>();
      for (final String resource : resources) {
        final BigInteger folded =
            halfLife.fold(
                values.getOrDefault(resource, BigInteger.ZERO),
                integrals.getOrDefault(resource, BigInteger.ZERO));
        if (folded.signum() > 0) {
          next.put(resource, folded);
        }
      }
      values = next;
      start = windowEnd;
    }
    return new DecayedBorrowing(start, values, last);
  }

  /** The decayed average borrowed per resource ({@link HalfLife#average}), zeros left out. */
  public ResourceList average(HalfLife halfLife) {
    final ResourceList.Builder builder = ResourceList.builder();
    decayed.forEach(
        (resource, value) -> {
          final long average = halfLife.average(value);
          if (average > 0) {
            builder.put(resource, average);
          }
        });
    return builder.build();
  }

  /** Whether nothing is remembered any more: no decayed borrowing and none in force. */
  public boolean isForgotten() {
    return decayed.isEmpty() && lastBorrowed.isEmpty();
  }
}
