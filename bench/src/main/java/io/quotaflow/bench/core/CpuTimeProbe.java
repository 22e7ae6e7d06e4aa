package io.quotaflow.bench.core;

import io.quotaflow.bench.cluster.ClusterShape;
import io.quotaflow.bench.cluster.SyntheticCluster;
import io.quotaflow.bench.cluster.SyntheticClusterGenerator;
import io.quotaflow.bench.peer.YarnFairSharePeer;
import io.quotaflow.profile.MultiTreeCalculator;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.QuotaCalculator;
import io.quotaflow.tree.QuotaOptions;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A companion to the JMH benchmarks for a shared machine: the same operations, timed by the CPU
 * time of the thread that runs them rather than by the wall clock. When other processes keep the
 * cores busy, wall-clock figures grow with the wait for a core; thread CPU time does not (it leaves
 * out the garbage collector's threads, so it is a lower bound). Not a JMH benchmark: no forks, no
 * blackholes; each result is kept in a field so the work cannot be skipped.
 *
 * <p>Usage: {@code java -cp bench/target/benchmarks.jar io.quotaflow.bench.core.CpuTimeProbe
 * [groups...]}
 */
public final class CpuTimeProbe {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private static final long WARM_UP_NANOS = 5_000_000_000L;

  private static Object sink;

  private CpuTimeProbe() {}

  /** Prints median and largest thread CPU time per operation for each size given. */
  public static void main(String[] args) {
    final int[] sizes =
        args.length == 0
            ? new int[] {100, 10_000, 100_000}
            : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
    System.out.printf(
        "%-40s %8s %6s %14s %14s%n", "operation", "groups", "ops", "cpu p50", "cpu max");
    for (final int groups : sizes) {
      probe(groups);
    }
  }

  private static void probe(int groups) {
    final SyntheticCluster cluster = SyntheticClusterGenerator.generate(ClusterShape.of(groups));
    final int fullOps = groups >= 100_000 ? 5 : groups >= 10_000 ? 40 : 400;
    report(
        "FullRecompute (quotaflow)",
        groups,
        measure(
            fullOps,
            () -> sink = QuotaCalculator.compute(cluster.inputs(), QuotaOptions.DEFAULTS)));
    // What simulate and a task's restore pay: the same, routed through the quota-tree router
    // first (a cluster without ElasticQuotaProfiles: one tree).
    report(
        "FullRecompute via MultiTreeCalculator",
        groups,
        measure(
            fullOps,
            () ->
                sink =
                    MultiTreeCalculator.compute(
                        cluster.inputs(), List.of(), QuotaOptions.DEFAULTS)));
    // A floor for any cold start: what must be done with the pods at the least (the groups indexed
    // by name, the pods mapped by reference, each pod's request added to its group's).
    report(
        "Floor: index groups, map pods, sum requests",
        groups,
        measure(fullOps, () -> sink = podFloor(cluster)));
    final YarnFairSharePeer peer = new YarnFairSharePeer(cluster.inputs());
    report(
        "YarnPeer (ComputeFairShares)", groups, measure(fullOps * 2, () -> sink = peer.compute()));
    // The peer's own cold start from the same inputs: index the tree, resolve and read the pods
    // (its constructor), then compute. The target is set against compute() alone, above.
    report(
        "YarnPeer cold start (index + compute)",
        groups,
        measure(fullOps, () -> sink = new YarnFairSharePeer(cluster.inputs()).compute()));
    if (groups < 10_000) {
      return;
    }
    final ClusterQuotaState state = new ClusterQuotaState(QuotaOptions.DEFAULTS);
    cluster.inputs().groups().forEach(state::putGroup);
    cluster.inputs().pods().forEach(state::putPod);
    cluster.inputs().nodes().forEach(state::putNode);
    state.recompute();
    final SplittableRandom random = new SplittableRandom(ClusterShape.DEFAULT_SEED);
    final List<SyntheticCluster.Leaf> leaves = cluster.leaves();
    final int podOps = 4_000;
    final QuotaPod[] pods = new QuotaPod[podOps];
    for (int i = 0; i < podOps; i++) {
      pods[i] = SyntheticCluster.newPod(leaves.get(random.nextInt(leaves.size())), i, random);
    }
    final int[] next = {0};
    report(
        "IncrementalUpdate.podEvent",
        groups,
        measure(
            podOps,
            () -> {
              final int i = next[0]++ % podOps;
              if (i % 2 == 0) {
                state.putPod(pods[i]);
              } else {
                state.removePod(pods[i - 1].ref());
              }
              sink = state.recompute();
            }));
    report(
        "RuntimeRecompute.recomputeAll",
        groups,
        measure(fullOps * 4, () -> sink = state.recomputeAll()));
    final QuotaNode node = cluster.inputs().nodes().get(0);
    final boolean[] removed = {false};
    report(
        "IncrementalUpdate.nodeEvent",
        groups,
        measure(
            fullOps * 4,
            () -> {
              if (removed[0]) {
                state.putNode(node);
              } else {
                state.removeNode(node.name());
              }
              removed[0] = !removed[0];
              sink = state.recompute();
            }));
  }

  private static long[][] podFloor(SyntheticCluster cluster) {
    final List<QuotaGroup> groups = cluster.inputs().groups();
    final Map<String, Integer> index = new HashMap<>(groups.size() * 2);
    for (int i = 0; i < groups.size(); i++) {
      index.put(groups.get(i).name(), i);
    }
    final List<QuotaPod> pods = cluster.inputs().pods();
    final Map<PodRef, QuotaPod> byRef = new HashMap<>(pods.size() * 2);
    final long[][] requests = new long[groups.size()][];
    for (final QuotaPod pod : pods) {
      byRef.put(pod.ref(), pod);
      final Integer group = index.get(pod.quotaName().orElse(pod.ref().namespace()));
      if (group == null) {
        continue;
      }
      final ResourceList request = pod.request();
      if (requests[group] == null) {
        requests[group] = new long[request.size()];
      }
      for (int d = 0; d < request.size() && d < requests[group].length; d++) {
        requests[group][d] += request.amountAt(d);
      }
    }
    return byRef.isEmpty() ? null : requests;
  }

  /**
   * Runs {@code ops} warm-up operations, and more until {@link #WARM_UP_NANOS} have passed (as JMH
   * warms up by time: code with many small methods needs more runs to be compiled), then {@code
   * ops} timed ones; CPU nanoseconds each.
   */
  private static long[] measure(int ops, Runnable operation) {
    final long warmUntil = System.nanoTime() + WARM_UP_NANOS;
    for (int i = 0; i < ops || System.nanoTime() < warmUntil; i++) {
      operation.run();
    }
    final long[] cpu = new long[ops];
    for (int i = 0; i < ops; i++) {
      final long start = THREADS.getCurrentThreadCpuTime();
      operation.run();
      cpu[i] = THREADS.getCurrentThreadCpuTime() - start;
    }
    Arrays.sort(cpu);
    return cpu;
  }

  private static void report(String operation, int groups, long[] sortedCpu) {
    System.out.printf(
        "%-40s %8d %6d %11.3f ms %11.3f ms%n",
        operation,
        groups,
        sortedCpu.length,
        sortedCpu[sortedCpu.length / 2] / 1e6,
        sortedCpu[sortedCpu.length - 1] / 1e6);
    System.out.flush();
    if (sink == null) {
      throw new IllegalStateException("no result");
    }
  }
}
