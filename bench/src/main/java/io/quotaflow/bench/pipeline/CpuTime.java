package io.quotaflow.bench.pipeline;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.function.Predicate;

/**
 * CPU time, which a busy machine does not inflate the way it inflates wall-clock time: the whole
 * process's (broker, engine, the bench's clients) and that of chosen live threads (an engine's
 * stream threads).
 */
final class CpuTime {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private CpuTime() {}

  /** CPU nanoseconds used by this process so far, or -1 if the JVM cannot tell. */
  static long process() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }

  /** CPU nanoseconds used so far by the live threads whose name {@code named} accepts. */
  static long threads(final Predicate<String> named) {
    long total = 0;
    for (final ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
      if (info != null && named.test(info.getThreadName())) {
        final long nanos = THREADS.getThreadCpuTime(info.getThreadId());
        if (nanos > 0) {
          total += nanos;
        }
      }
    }
    return total;
  }
}
