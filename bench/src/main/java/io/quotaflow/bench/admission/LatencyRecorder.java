package io.quotaflow.bench.admission;

import java.util.Arrays;

/** Latencies of one phase, in nanoseconds, kept whole (a phase is at most some 10^5 requests). */
final class LatencyRecorder {

  private long[] values = new long[1 << 14];
  private int count;
  private int errors;

  synchronized void record(long nanos) {
    if (count == values.length) {
      values = Arrays.copyOf(values, values.length * 2);
    }
    values[count++] = nanos;
  }

  synchronized void error() {
    errors++;
  }

  /** A summary of what was recorded. */
  synchronized Summary summary(double seconds) {
    final long[] sorted = Arrays.copyOf(values, count);
    Arrays.sort(sorted);
    return new Summary(
        count,
        errors,
        count / seconds,
        quantile(sorted, 0.50),
        quantile(sorted, 0.99),
        quantile(sorted, 0.999),
        count == 0 ? 0 : sorted[count - 1]);
  }

  private static long quantile(long[] sorted, double q) {
    if (sorted.length == 0) {
      return 0;
    }
    final int index = (int) Math.ceil(q * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }

  /** Requests, failures, throughput per second and latency quantiles in nanoseconds. */
  record Summary(
      int requests, int errors, double perSecond, long p50, long p99, long p999, long max) {

    String line(String name) {
      return String.format(
          "%-22s %8d req %5d err %9.0f req/s   p50 %7.3f ms   p99 %7.3f ms   p99.9 %7.3f ms"
              + "   max %7.3f ms",
          name, requests, errors, perSecond, p50 / 1e6, p99 / 1e6, p999 / 1e6, max / 1e6);
    }
  }
}
