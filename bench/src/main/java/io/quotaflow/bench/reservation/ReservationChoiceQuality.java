package io.quotaflow.bench.reservation;

import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.reservation.LockChoice;
import io.quotaflow.reservation.LockChooser;
import io.quotaflow.reservation.NodeChooser;
import io.quotaflow.reservation.ReservationCandidate;
import io.quotaflow.reservation.ReservationPlanner;
import io.quotaflow.reservation.ReservationStatus;
import io.quotaflow.reservation.ReservationTarget;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the two choices of {@link ReservationChoiceBenchmark} lock on its workload: reservations
 * satisfied, nodes locked, the allocatable locked beyond the targets (cores, GiB, GPUs, in total
 * and as a share of the targets), how many locks are irreducible, how many of quotaflow's choices
 * the exact search made, and the thread CPU time of one plan (median of 21 after 20 warm-up plans):
 * on a shared machine, wall-clock figures grow with the wait for a core, thread CPU time does not
 * (it leaves out the garbage collector's threads: a lower bound).
 *
 * <p>Usage: {@code java -cp bench/target/benchmarks.jar
 * io.quotaflow.bench.reservation.ReservationChoiceQuality}
 */
public final class ReservationChoiceQuality {

  private static final int WARM_UP = 20;
  private static final int RUNS = 21;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static Object sink;

  private ReservationChoiceQuality() {}

  /** Prints one line per shape and choice. */
  public static void main(final String[] args) {
    System.out.printf(
        "%-7s %-10s %9s %6s %14s %14s %10s %11s %6s %12s%n",
        "shape",
        "choice",
        "satisfied",
        "nodes",
        "excess cores",
        "excess GiB",
        "excess GPU",
        "irreducible",
        "exact",
        "cpu ms p50");
    for (final ReservationWorkload.Shape shape : ReservationWorkload.Shape.values()) {
      final ReservationWorkload workload = new ReservationWorkload(shape);
      final AtomicInteger exact = new AtomicInteger();
      final NodeChooser counting =
          request -> {
            final Optional<LockChoice> choice = LockChooser.choose(request);
            if (choice.isPresent() && choice.get().exact()) {
              exact.incrementAndGet();
            }
            return choice;
          };
      report(shape, "quotaflow", workload, counting, exact);
      report(shape, "first-fit", workload, new FirstFitChooser(), null);
    }
  }

  private static void report(
      final ReservationWorkload.Shape shape,
      final String name,
      final ReservationWorkload workload,
      final NodeChooser chooser,
      final AtomicInteger exact) {
    final Map<String, ReservationStatus> statuses =
        ReservationPlanner.plan(
            workload.nodes,
            workload.load,
            workload.fresh,
            workload.options,
            workload.options.reservationMaxLockedPercent(),
            chooser);
    final Map<String, ResourceList> allocatable = new HashMap<>();
    final List<ReservationCandidate> all = new ArrayList<>();
    for (final QuotaNode node : workload.nodes) {
      allocatable.put(node.name(), node.allocatable());
      all.add(
          new ReservationCandidate(
              node.name(), node.allocatable(), node.allocatable(), ResourceList.empty(), false));
    }
    int satisfied = 0;
    int nodes = 0;
    int irreducible = 0;
    ResourceList excess = ResourceList.empty();
    ResourceList targets = ResourceList.empty();
    for (final ReservationStatus status : statuses.values()) {
      if (!status.satisfied()) {
        continue;
      }
      satisfied++;
      nodes += status.nodes().size();
      ResourceList locked = ResourceList.empty();
      for (final String node : status.nodes()) {
        locked = locked.plus(allocatable.get(node));
      }
      excess = excess.plus(locked.only(status.target().names()).minus(status.target()));
      targets = targets.plus(status.target());
      if (LockChooser.irreducible(
          new ReservationTarget(status.target(), status.minNodes()), all, status.nodes())) {
        irreducible++;
      }
    }
    System.out.printf(
        "%-7s %-10s %6d/%-2d %6d %7.1f (%3.0f%%) %7.1f (%3.0f%%) %4d (%3.0f%%) %7d/%-3d %6s %12.1f%n",
        shape,
        name,
        satisfied,
        statuses.size(),
        nodes,
        excess.get("cpu") / 1_000.0,
        percent(excess, targets, "cpu"),
        excess.get("memory") / (double) (1L << 30),
        percent(excess, targets, "memory"),
        excess.get("nvidia.com/gpu"),
        percent(excess, targets, "nvidia.com/gpu"),
        irreducible,
        satisfied,
        exact == null ? "-" : Integer.toString(exact.get()),
        cpuMillis(workload, chooser));
  }

  /** The median thread CPU time of one plan from scratch, in milliseconds. */
  private static double cpuMillis(final ReservationWorkload workload, final NodeChooser chooser) {
    for (int i = 0; i < WARM_UP; i++) {
      sink = plan(workload, chooser);
    }
    final long[] times = new long[RUNS];
    for (int i = 0; i < RUNS; i++) {
      final long started = THREADS.getCurrentThreadCpuTime();
      sink = plan(workload, chooser);
      times[i] = THREADS.getCurrentThreadCpuTime() - started;
    }
    Arrays.sort(times);
    return times[RUNS / 2] / 1e6;
  }

  private static Map<String, ReservationStatus> plan(
      final ReservationWorkload workload, final NodeChooser chooser) {
    return ReservationPlanner.plan(
        workload.nodes,
        workload.load,
        workload.fresh,
        workload.options,
        workload.options.reservationMaxLockedPercent(),
        chooser);
  }

  private static double percent(ResourceList excess, ResourceList targets, String dimension) {
    return targets.get(dimension) == 0 ? 0 : 100.0 * excess.get(dimension) / targets.get(dimension);
  }
}
