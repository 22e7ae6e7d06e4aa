package io.quotaflow.bench.pipeline;

import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * CPU time, which a busy machine does not inflate the way it inflates wall-clock time: the whole
 * process's (broker, engine, the bench's clients, the JVM's own threads) and each Java thread's, so
 * a run can say where its CPU went.
 */
final class CpuTime {
  /** The category of the whole process's CPU time. */
  static final String WHOLE_PROCESS = "whole process";

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final long processAtStart;
  private final Map<Long, Long> threadsAtStart;
  private final long compilationMillisAtStart;
  private final long gcMillisAtStart;

  private CpuTime(final long processAtStart, final Map<Long, Long> threadsAtStart) {
    this.processAtStart = processAtStart;
    this.threadsAtStart = threadsAtStart;
    this.compilationMillisAtStart = compilationMillis();
    this.gcMillisAtStart = gcMillis();
  }

  /** The CPU time used so far, to measure from. */
  static CpuTime start() {
    final Map<Long, Long> threads = new HashMap<>();
    for (final ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
      if (info != null) {
        threads.put(info.getThreadId(), Math.max(0, THREADS.getThreadCpuTime(info.getThreadId())));
      }
    }
    return new CpuTime(process(), threads);
  }

  /**
   * CPU nanoseconds used since {@link #start()}, by category of the live threads ({@code category}
   * names one from a thread's name), plus "JVM and native threads" for what the process used beyond
   * its live Java threads (garbage collection, compilation, threads that ended) and "whole process"
   * for the total. Categories keep their first-seen order after the whole process.
   */
  Map<String, Long> since(final Function<String, String> category) {
    final long processNanos = process() - processAtStart;
    final Map<String, Long> byCategory = new LinkedHashMap<>();
    byCategory.put(WHOLE_PROCESS, processNanos);
    long javaThreads = 0;
    for (final ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
      if (info == null) {
        continue;
      }
      final long now = THREADS.getThreadCpuTime(info.getThreadId());
      if (now < 0) {
        continue;
      }
      final long used = now - threadsAtStart.getOrDefault(info.getThreadId(), 0L);
      javaThreads += used;
      byCategory.merge(category.apply(info.getThreadName()), used, Long::sum);
    }
    byCategory.put("JVM and native threads", processNanos - javaThreads);
    byCategory.put(
        "  of which at most: JIT compilers (their elapsed time)",
        (compilationMillis() - compilationMillisAtStart) * 1_000_000);
    byCategory.put(
        "  of which at most: garbage collection pauses (elapsed)",
        (gcMillis() - gcMillisAtStart) * 1_000_000);
    return byCategory;
  }

  private static long compilationMillis() {
    final CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
    return compiler != null && compiler.isCompilationTimeMonitoringSupported()
        ? compiler.getTotalCompilationTime()
        : 0;
  }

  private static long gcMillis() {
    long total = 0;
    for (final GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      total += Math.max(0, gc.getCollectionTime());
    }
    return total;
  }

  /** CPU nanoseconds used by this process so far, or -1 if the JVM cannot tell. */
  private static long process() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }
}
