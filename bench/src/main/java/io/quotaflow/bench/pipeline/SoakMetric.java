package io.quotaflow.bench.pipeline;

import java.util.Locale;

/**
 * What the soak benchmark samples every minute: one column of its CSV, one panel of its chart, one
 * line of its flatness verdict. A series counts as flat when the mean of the last quarter of the
 * samples is within {@link #RELATIVE_TOLERANCE} of the second quarter's mean, or within the
 * metric's absolute slack (what a steady process still moves by: a thread pool's spare thread, a
 * topic's uncompacted active segments), whichever is larger.
 */
enum SoakMetric {
  HEAP("heap used after a full GC", "MiB", 16),
  RSS("resident set size", "MiB", 64),
  STATE_DIR("engine's state directory on disk", "KiB", 1024),
  CHANGELOGS("engine's changelog topics on disk", "MiB", 0),
  TOPICS("input and output topics on disk", "MiB", 0),
  OPEN_FILES("open file descriptors", "", 16),
  THREADS("live threads", "", 2),
  GC_TIME("GC pauses in the minute (the forced full GC included)", "ms", 100),
  OFFERED("pod events offered", "per s", 0),
  READ("input records read by the engine", "per s", 0),
  LAG("engine's input lag (committed offsets)", "records", 0),
  LATENCY_P50("pod event to runtime record, p50", "ms", 20),
  LATENCY_P99("pod event to runtime record, p99", "ms", 50),
  STALENESS("oldest input heartbeat, worst cluster", "s", 10),
  SUSPENDED("clusters with reclaim suspended", "", 0);

  /** The share of the second quarter's mean the last quarter's may differ by and still be flat. */
  static final double RELATIVE_TOLERANCE = 0.10;

  private final String label;
  private final String unit;
  private final double slack;

  SoakMetric(final String label, final String unit, final double slack) {
    this.label = label;
    this.unit = unit;
    this.slack = slack;
  }

  String label() {
    return label;
  }

  String unit() {
    return unit;
  }

  /** The absolute change that still counts as flat, unless the run sets its own. */
  double defaultSlack() {
    return slack;
  }

  /** The CSV column name: lower case, the unit appended. */
  String column() {
    final String base = name().toLowerCase(Locale.ROOT);
    return unit.isEmpty() ? base : base + "_" + unit.replace("per s", "per_s");
  }

  /** The label with its unit, for a chart panel or a table row. */
  String title() {
    return unit.isEmpty() ? label : label + " (" + unit + ")";
  }
}
