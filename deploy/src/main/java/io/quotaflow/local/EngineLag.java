package io.quotaflow.local;

import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * How far the engine is from serving a current tree, read from its Kafka consumers' metrics: the
 * input records its stream threads have still to process and the changelog records its restore
 * consumers have still to restore. A count is empty until its consumer has fetched once.
 *
 * @param behind input records not yet processed, or -1 when not known yet
 * @param restoring changelog records not yet restored, or -1 when not known (nothing restoring)
 */
record EngineLag(long behind, long restoring) {

  private static final String FETCH_METRICS = "consumer-fetch-manager-metrics";
  private static final String RECORDS_LAG = "records-lag";
  private static final String CLIENT_ID = "client-id";
  private static final String RESTORE_CONSUMER = "restore-consumer";

  /** The lag in {@code metrics}, those of {@code KafkaStreams.metrics()}. */
  static EngineLag of(final Map<MetricName, ? extends Metric> metrics) {
    long behind = -1;
    long restoring = -1;
    for (final Map.Entry<MetricName, ? extends Metric> entry : metrics.entrySet()) {
      final MetricName name = entry.getKey();
      if (!RECORDS_LAG.equals(name.name()) || !FETCH_METRICS.equals(name.group())) {
        continue;
      }
      // Per partition; NaN until the consumer has fetched from it.
      if (!(entry.getValue().metricValue() instanceof Double lag) || lag.isNaN()) {
        continue;
      }
      final long records = Math.max(0, lag.longValue());
      if (name.tags().getOrDefault(CLIENT_ID, "").endsWith(RESTORE_CONSUMER)) {
        restoring = Math.max(restoring, 0) + records;
      } else {
        behind = Math.max(behind, 0) + records;
      }
    }
    return new EngineLag(behind, restoring);
  }

  /**
   * For a progress line, e.g. "12,000 changelog records to restore, 3,400 input records behind".
   */
  String describe() {
    final StringBuilder text = new StringBuilder();
    if (restoring > 0) {
      text.append(String.format(Locale.ROOT, "%,d changelog records to restore", restoring));
    }
    if (behind >= 0) {
      text.append(text.isEmpty() ? "" : ", ")
          .append(String.format(Locale.ROOT, "%,d input records behind", behind));
    }
    return text.isEmpty() ? "waiting for its partitions" : text.toString();
  }
}
