package io.quotaflow.local;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Says when a long task's next progress line is due: at most one every interval, the first one
 * interval after the start, so that work finished within it prints no progress at all.
 */
final class ProgressTicker {

  private final long intervalNanos;
  private final LongSupplier nanoTime;
  private long next;

  ProgressTicker(final Duration interval, final LongSupplier nanoTime) {
    this.intervalNanos = interval.toNanos();
    this.nanoTime = nanoTime;
    this.next = nanoTime.getAsLong() + intervalNanos;
  }

  /** A ticker on the system's monotonic clock. */
  static ProgressTicker every(final Duration interval) {
    return new ProgressTicker(interval, System::nanoTime);
  }

  /** Whether a line is due now; when it is, the next one is due an interval later. */
  boolean due() {
    final long now = nanoTime.getAsLong();
    if (now - next < 0) {
      return false;
    }
    next = now + intervalNanos;
    return true;
  }
}
