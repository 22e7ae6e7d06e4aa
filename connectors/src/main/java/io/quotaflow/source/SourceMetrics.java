package io.quotaflow.source;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;

/** The counters of one cluster and kind of the source. */
final class SourceMetrics {

  /** Records handed to the producer, tagged by {@code type}: value or tombstone. */
  static final String WRITTEN = "quotaflow.source.records.written";

  /** Events that changed nothing quotaflow reads, so nothing was written. */
  static final String UNCHANGED = "quotaflow.source.records.unchanged";

  /** Records the producer could not deliver after its retries. */
  static final String FAILED = "quotaflow.source.records.failed";

  /** Records written with at least one field that could not be read. */
  static final String MALFORMED = "quotaflow.source.records.malformed";

  /** Snapshots started: every object re-sent between two markers. */
  static final String SNAPSHOTS = "quotaflow.source.snapshots";

  private final Counter values;
  private final Counter snapshots;
  private final Counter tombstones;
  private final Counter unchanged;
  private final Counter failed;
  private final Counter malformed;

  SourceMetrics(final MeterRegistry registry, final String cluster, final String kind) {
    Objects.requireNonNull(registry, "registry");
    this.values = counter(registry, WRITTEN, cluster, kind, "type", "value");
    this.tombstones = counter(registry, WRITTEN, cluster, kind, "type", "tombstone");
    this.unchanged = counter(registry, UNCHANGED, cluster, kind);
    this.failed = counter(registry, FAILED, cluster, kind);
    this.malformed = counter(registry, MALFORMED, cluster, kind);
    this.snapshots = counter(registry, SNAPSHOTS, cluster, kind);
  }

  void snapshot() {
    snapshots.increment();
  }

  void value() {
    values.increment();
  }

  void tombstone() {
    tombstones.increment();
  }

  void unchanged() {
    unchanged.increment();
  }

  void failed() {
    failed.increment();
  }

  void malformed() {
    malformed.increment();
  }

  private static Counter counter(
      final MeterRegistry registry,
      final String name,
      final String cluster,
      final String kind,
      final String... extraTags) {
    return Counter.builder(name)
        .tag("cluster", cluster)
        .tag("kind", kind)
        .tags(extraTags)
        .register(registry);
  }
}
