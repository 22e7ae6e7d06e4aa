package io.quotaflow.bench.pipeline;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One minute's sample of the soak benchmark.
 *
 * @param minute minutes since the load started
 * @param values a value for every {@link SoakMetric}
 */
record SoakSample(double minute, Map<SoakMetric, Double> values) {
  SoakSample {
    values = new EnumMap<>(values);
    if (values.size() != SoakMetric.values().length) {
      throw new IllegalArgumentException("a sample needs every metric, got " + values.keySet());
    }
  }

  double get(final SoakMetric metric) {
    return values.get(metric);
  }

  /** The CSV header matching {@link #csvRow()}. */
  static String csvHeader() {
    return Stream.concat(
            Stream.of("minute"), Stream.of(SoakMetric.values()).map(SoakMetric::column))
        .collect(Collectors.joining(","));
  }

  String csvRow() {
    return Stream.concat(Stream.of(minute), Stream.of(SoakMetric.values()).map(values::get))
        .map(v -> String.format(Locale.ROOT, "%.2f", v))
        .collect(Collectors.joining(","));
  }
}
