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

  /**
   * Not CPU time: the bytes the process's Java threads allocated on the heap, scaled so that the
   * per-event figure printed beside the CPU microseconds reads as kB per event. Memory-bound work
   * slows most on machines with less memory bandwidth per core, so this tells such a machine's
   * figures apart.
   */
  static final String ALLOCATED = "(not CPU) heap allocated, kB";

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final long processAtStart;
  private final Map<Long, Long> threadsAtStart;
  private final long compilationMillisAtStart;
  private final long gcMillisAtStart;
  private final long allocatedAtStart = allocated();

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
    final long allocated = allocated();
    if (allocated >= 0 && allocatedAtStart >= 0) {
      // Printed as nanos / 1e3 per event: bytes / 1e3 = kB.
      byCategory.put(ALLOCATED, allocated - allocatedAtStart);
    }
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

  /** Heap bytes allocated by all Java threads so far (ended ones too), or -1 if not known. */
  private static long allocated() {
    if (THREADS instanceof com.sun.management.ThreadMXBean threads
        && threads.isThreadAllocatedMemorySupported()
        && threads.isThreadAllocatedMemoryEnabled()) {
      return threads.getTotalThreadAllocatedBytes();
    }
    return -1;
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
