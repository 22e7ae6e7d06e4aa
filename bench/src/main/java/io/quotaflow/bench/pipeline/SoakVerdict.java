package io.quotaflow.bench.pipeline;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Whether each series of a soak run is flat after the warm-up: the mean of the last quarter of the
 * samples against the mean of the second quarter (the first quarter is left out as the tail of the
 * warm-up), within the larger of {@link SoakMetric#RELATIVE_TOLERANCE} of the second quarter's mean
 * and the metric's absolute slack.
 */
final class SoakVerdict {
  private final List<Line> lines;

  private SoakVerdict(final List<Line> lines) {
    this.lines = List.copyOf(lines);
  }

  /**
   * @param samples at least 4, in time order
   * @param slack the absolute slack of the metrics whose slack depends on the run (else the
   *     metric's default)
   */
  static SoakVerdict of(final List<SoakSample> samples, final Map<SoakMetric, Double> slack) {
    if (samples.size() < 4) {
      throw new IllegalArgumentException("need 4 samples for quarters, got " + samples.size());
    }
    final int n = samples.size();
    final List<Line> lines = new ArrayList<>();
    for (final SoakMetric metric : SoakMetric.values()) {
      final double second = mean(samples.subList(n / 4, n / 2), metric);
      final double last = mean(samples.subList(n - n / 4, n), metric);
      final double tolerance =
          Math.max(
              SoakMetric.RELATIVE_TOLERANCE * Math.abs(second),
              slack.getOrDefault(metric, metric.defaultSlack()));
      lines.add(
          new Line(
              metric,
              samples.get(0).get(metric),
              samples.get(n - 1).get(metric),
              second,
              last,
              tolerance,
              Math.abs(last - second) <= tolerance));
    }
    return new SoakVerdict(lines);
  }

  private static double mean(final List<SoakSample> samples, final SoakMetric metric) {
    return samples.stream().mapToDouble(s -> s.get(metric)).average().orElse(Double.NaN);
  }

  List<Line> lines() {
    return lines;
  }

  boolean allFlat() {
    return lines.stream().allMatch(Line::flat);
  }

  Line line(final SoakMetric metric) {
    return lines.get(metric.ordinal());
  }

  /** A Markdown table: first and last sample, the two quarters' means, the change, the verdict. */
  void print(final PrintStream out, final SoakSample first, final SoakSample last) {
    out.printf(
        Locale.ROOT,
        "| series | first sample (minute %.0f) | last sample (minute %.0f) | mean, 2nd quarter |"
            + " mean, last quarter | change | tolerance | flat? |%n",
        first.minute(),
        last.minute());
    out.println("|---|---:|---:|---:|---:|---:|---:|---|");
    for (final Line line : lines) {
      out.printf(
          Locale.ROOT,
          "| %s | %s | %s | %s | %s | %s | +/-%s | %s |%n",
          line.metric().title(),
          number(line.first()),
          number(line.last()),
          number(line.secondQuarter()),
          number(line.lastQuarter()),
          signed(line.lastQuarter() - line.secondQuarter()),
          number(line.tolerance()),
          line.flat() ? "flat" : "NOT FLAT");
    }
  }

  private static String number(final double value) {
    return Math.abs(value) >= 100
        ? String.format(Locale.ROOT, "%,.0f", value)
        : String.format(Locale.ROOT, "%.1f", value);
  }

  private static String signed(final double value) {
    return (value >= 0 ? "+" : "") + number(value);
  }

  /**
   * One series' verdict.
   *
   * @param metric the series
   * @param first its first sample
   * @param last its last sample
   * @param secondQuarter the mean of the second quarter of the samples
   * @param lastQuarter the mean of the last quarter
   * @param tolerance how far apart the two means may be
   * @param flat whether they are within it
   */
  record Line(
      SoakMetric metric,
      double first,
      double last,
      double secondQuarter,
      double lastQuarter,
      double tolerance,
      boolean flat) {}
}
