package io.quotaflow.bench.pipeline;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * Offers pod events at a fixed rate to a running engine and records, for each, the time from its
 * scheduled send time to the runtime record that shows its effect. Timing from the schedule (not
 * from the actual send) makes a stalled producer count against every event it delays. Events visit
 * every leaf group once before any leaf again, so no two events of one leaf are in flight together
 * at the rates this is meant for.
 */
final class LatencyRun {
  private final Workload workload;
  private final InputWriter writer;
  private final RuntimeWatcher watcher;

  LatencyRun(final Workload workload, final InputWriter writer, final RuntimeWatcher watcher) {
    this.workload = workload;
    this.writer = writer;
    this.watcher = watcher;
  }

  /** Offers {@code rate} events/s for {@code warmup} (not recorded) then {@code measured}. */
  Result run(final int rate, final Duration warmup, final Duration measured, final Duration drain) {
    final long period = 1_000_000_000L / rate;
    final long start = System.nanoTime();
    final long warmupEnd = start + warmup.toNanos();
    final long end = warmupEnd + measured.toNanos();
    long sent = 0;
    long superseded = 0;
    while (true) {
      final long due = start + sent * period;
      if (due >= end) {
        break;
      }
      final long wait = due - System.nanoTime();
      if (wait > 0) {
        LockSupport.parkNanos(wait);
        continue;
      }
      final Workload.PodEvent event = workload.event(workload.podVisitingLeaves(sent));
      if (watcher.expect(event.leaf(), event.leafUsedCpu(), due, due >= warmupEnd)) {
        superseded++;
      }
      writer.pod(event);
      sent++;
    }
    writer.flush();
    final long sentMeasured = sent - (warmupEnd - start + period - 1) / period;
    final long drainEnd = System.nanoTime() + drain.toNanos();
    while (watcher.latencies().getTotalCount() < sentMeasured && System.nanoTime() < drainEnd) {
      LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
    }
    final Histogram latencies = watcher.latencies();
    return new Result(sent, sentMeasured, latencies.getTotalCount(), superseded, latencies);
  }

  /**
   * Events sent in all, those offered in the measured window, how many of those were seen in a
   * runtime record, how many events were overtaken by a newer event of their leaf, and the
   * latencies in microseconds.
   */
  record Result(long sent, long offered, long matched, long superseded, Histogram micros) {
    double millis(final double percentile) {
      return micros.getValueAtPercentile(percentile) / 1_000.0;
    }

    double maxMillis() {
      return micros.getMaxValue() / 1_000.0;
    }
  }
}
