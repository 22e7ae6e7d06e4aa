package io.quotaflow.bench.reservation;

import io.quotaflow.reservation.LockChooser;
import io.quotaflow.reservation.ReservationInput;
import io.quotaflow.reservation.ReservationPlanner;
import io.quotaflow.reservation.ReservationStatus;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The choice of locked nodes for a whole cluster (1,000 nodes, 50 reserving groups, {@link
 * ReservationWorkload}) in one plan: quotaflow's ({@link LockChooser}, exact within its step
 * budget, else its heuristic) against a plain greedy first-fit ({@link FirstFitChooser}) in the
 * same plan (age order, locked-share cap); and the plan an engine runs on every node event and
 * relock once the locks are held (each lock checked and kept). {@link ReservationChoiceQuality}
 * prints what the two choices lock.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ReservationChoiceBenchmark {

  @Param({"TYPED", "VARIED"})
  public ReservationWorkload.Shape shape;

  private ReservationWorkload workload;
  private List<ReservationInput> held;

  /** Generates the cluster and plans it once, so that the held plan has locks to keep. */
  @Setup
  public void setUp() {
    workload = new ReservationWorkload(shape);
    final Map<String, ReservationStatus> first = plan(workload.fresh);
    if (first.values().stream().noneMatch(ReservationStatus::satisfied)) {
      throw new IllegalStateException("the workload locks nothing: " + first);
    }
    held = workload.holding(first);
  }

  private Map<String, ReservationStatus> plan(final List<ReservationInput> inputs) {
    return ReservationPlanner.plan(
        workload.nodes,
        workload.load,
        inputs,
        workload.options,
        workload.options.reservationMaxLockedPercent(),
        LockChooser::choose);
  }

  /** Every lock chosen from scratch by quotaflow's choice. */
  @Benchmark
  public Map<String, ReservationStatus> quotaflowFromScratch() {
    return plan(workload.fresh);
  }

  /** Every lock chosen from scratch by the first-fit peer. */
  @Benchmark
  public Map<String, ReservationStatus> firstFitFromScratch() {
    return ReservationPlanner.plan(
        workload.nodes,
        workload.load,
        workload.fresh,
        workload.options,
        workload.options.reservationMaxLockedPercent(),
        new FirstFitChooser());
  }

  /** The steady state: every lock held, checked and kept (a node event, a relock). */
  @Benchmark
  public Map<String, ReservationStatus> quotaflowKeepingLocks() {
    return plan(held);
  }
}
