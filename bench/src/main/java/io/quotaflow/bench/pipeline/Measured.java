package io.quotaflow.bench.pipeline;

import java.io.PrintStream;
import java.util.Locale;

/**
 * One measured engine run of the pipeline benchmark: its guarantee, the pod records it read, its
 * timing and CPU, its footprint and what it wrote.
 */
record Measured(
    String guarantee,
    long podRecords,
    EngineRun.Timing timing,
    Footprint footprint,
    long runtimeRecords,
    long classRecords,
    int instances) {
  Measured withInstances(final int count) {
    return new Measured(
        guarantee, podRecords, timing, footprint, runtimeRecords, classRecords, count);
  }

  double perSecond() {
    return podRecords / timing.secondsFromStart();
  }

  double perSecondFromFirstRead() {
    return podRecords / timing.secondsFromFirstRead();
  }

  /** Whole-process CPU microseconds per pod event. */
  double cpuPerEvent() {
    return timing.cpu().get(CpuTime.WHOLE_PROCESS) / 1e3 / podRecords;
  }

  /** One line per part of the process: its CPU microseconds per pod event. */
  static void printCpuPerEvent(
      final PrintStream out, final EngineRun.Timing timing, final long podRecords) {
    timing
        .cpu()
        .forEach(
            (part, nanos) ->
                out.printf(Locale.ROOT, "  %8.1f  %s%n", nanos / 1e3 / podRecords, part));
  }
}
