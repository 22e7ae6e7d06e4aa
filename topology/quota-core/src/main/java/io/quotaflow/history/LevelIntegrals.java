package io.quotaflow.history;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Exact integrals of a group's levels over time, per resource and {@link HistoryMetric}, in
 * unit-milliseconds (a level of 2 cores, 2,000 milli-cores, held for one minute integrates to
 * 120,000,000 milli-core-milliseconds). Integers of any size: a petabyte held for two weeks does
 * not overflow. Immutable.
 */
public final class LevelIntegrals {

  private static final HistoryMetric[] METRICS = HistoryMetric.values();
  private static final LevelIntegrals ZERO = new LevelIntegrals(Map.of());

  // By resource, sorted; each array indexed by metric ordinal.
  private final Map<String, BigInteger[]> byResource;

  private LevelIntegrals(Map<String, BigInteger[]> byResource) {
    this.byResource = byResource;
  }

  /** No time, or only zero levels. */
  public static LevelIntegrals zero() {
    return ZERO;
  }

  /**
   * Integrals from stored values.
   *
   * @param byResource per resource, one value per metric in {@link HistoryMetric} order
   */
  public static LevelIntegrals of(Map<String, BigInteger[]> byResource) {
    final Map<String, BigInteger[]> copy = new TreeMap<>();
    byResource.forEach(
        (resource, values) -> {
          if (values.length != METRICS.length) {
            throw new IllegalArgumentException(
                resource + ": " + values.length + " integrals, expected " + METRICS.length);
          }
          copy.put(resource, values.clone());
        });
    return new LevelIntegrals(copy);
  }

  /** These integrals plus {@code levels} held for {@code millis} milliseconds. */
  public LevelIntegrals plus(GroupLevels levels, long millis) {
    if (millis < 0) {
      throw new IllegalArgumentException("a negative duration: " + millis + " ms");
    }
    final Set<String> resources = levels.resources();
    if (millis == 0 || resources.isEmpty()) {
      return this;
    }
    final Map<String, BigInteger[]> sum = copy();
    final BigInteger duration = BigInteger.valueOf(millis);
    for (final String resource : resources) {
      final BigInteger[] values = sum.computeIfAbsent(resource, r -> zeros());
      for (final HistoryMetric metric : METRICS) {
        final long level = levels.level(metric, resource);
        if (level != 0) {
          values[metric.ordinal()] =
              values[metric.ordinal()].add(BigInteger.valueOf(level).multiply(duration));
        }
      }
    }
    return new LevelIntegrals(Collections.unmodifiableMap(sum));
  }

  /** The sum of these integrals and {@code other}. */
  public LevelIntegrals plus(LevelIntegrals other) {
    if (other.byResource.isEmpty()) {
      return this;
    }
    final Map<String, BigInteger[]> sum = copy();
    other.byResource.forEach(
        (resource, values) -> {
          final BigInteger[] into = sum.computeIfAbsent(resource, r -> zeros());
          for (int i = 0; i < values.length; i++) {
            into[i] = into[i].add(values[i]);
          }
        });
    return new LevelIntegrals(Collections.unmodifiableMap(sum));
  }

  /** The integral of {@code metric} in {@code resource}; zero where none was kept. */
  public BigInteger get(String resource, HistoryMetric metric) {
    final BigInteger[] values = byResource.get(resource);
    return values == null ? BigInteger.ZERO : values[metric.ordinal()];
  }

  /** The resources with an integral kept, sorted. */
  public Set<String> resources() {
    return Collections.unmodifiableSet(byResource.keySet());
  }

  private Map<String, BigInteger[]> copy() {
    final Map<String, BigInteger[]> copy = new TreeMap<>();
    byResource.forEach((resource, values) -> copy.put(resource, values.clone()));
    return copy;
  }

  private static BigInteger[] zeros() {
    final BigInteger[] zeros = new BigInteger[METRICS.length];
    Arrays.fill(zeros, BigInteger.ZERO);
    return zeros;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof LevelIntegrals other)) {
      return false;
    }
    final Set<String> names = new java.util.TreeSet<>(byResource.keySet());
    names.addAll(other.byResource.keySet());
    for (final String resource : names) {
      for (final HistoryMetric metric : METRICS) {
        if (!get(resource, metric).equals(other.get(resource, metric))) {
          return false;
        }
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int hash = 1;
    for (final Map.Entry<String, BigInteger[]> entry : byResource.entrySet()) {
      if (Arrays.stream(entry.getValue()).anyMatch(value -> value.signum() != 0)) {
        hash = 31 * hash + Objects.hash(entry.getKey(), Arrays.hashCode(entry.getValue()));
      }
    }
    return hash;
  }

  @Override
  public String toString() {
    final StringBuilder text = new StringBuilder("{");
    byResource.forEach(
        (resource, values) -> {
          text.append(resource).append('=');
          for (final HistoryMetric metric : METRICS) {
            text.append(metric.jsonName()).append(':').append(values[metric.ordinal()]).append(' ');
          }
        });
    return text.append('}').toString();
  }
}
