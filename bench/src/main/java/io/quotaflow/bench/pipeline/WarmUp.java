package io.quotaflow.bench.pipeline;

import java.util.List;

/**
 * How many unreported engine runs come before the measured ones. On two cores shared with the
 * broker, the JIT keeps compiling for several runs (the whole process's CPU time per pod event fell
 * from 118 to 72, 56, 46, 42 and 32 microseconds over six runs of one JVM, with the compilers busy
 * for 105, 68, 29, 20, 12 and 11 % of each run's time; in another JVM 124, 81, 54 and 51, then 39
 * after four more runs of other applications). By default the bench therefore runs at least {@link
 * #MIN} warm-up runs and then goes on while a run's CPU time per pod event differs from the run
 * before it by more than {@link #TOLERANCE} (at most {@link #MAX} runs), so the measured runs see
 * an engine as warm as a long-running one; {@code fixed} runs exactly that many instead.
 *
 * @param fixed the number of warm-up runs, or -1 to warm up until steady
 */
record WarmUp(int fixed) {
  static final int MIN = 5;
  static final int MAX = 8;
  static final double TOLERANCE = 0.10;

  /** Until steady, unless {@code engineWarmups} (the bench option) gives a number. */
  static WarmUp of(final Integer engineWarmups) {
    return new WarmUp(engineWarmups == null ? -1 : engineWarmups);
  }

  /**
   * Whether another warm-up run is needed after the runs so far, given each one's CPU time per pod
   * event in order.
   */
  boolean another(final List<Double> cpuPerEvent) {
    final int done = cpuPerEvent.size();
    if (fixed >= 0) {
      return done < fixed;
    }
    if (done < MIN) {
      return true;
    }
    if (done >= MAX) {
      return false;
    }
    final double last = cpuPerEvent.get(done - 1);
    final double before = cpuPerEvent.get(done - 2);
    return Math.abs(last - before) > TOLERANCE * before;
  }

  String describe() {
    return fixed >= 0
        ? fixed + " (fixed)"
        : String.format(
            "until a run's CPU per pod event is within %.0f %% of the run before (%d to %d runs)",
            100 * TOLERANCE, MIN, MAX);
  }
}
