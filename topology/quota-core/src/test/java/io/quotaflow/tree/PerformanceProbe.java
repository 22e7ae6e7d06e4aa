package io.quotaflow.tree;

import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Rough timings for the quota core, printed, never asserted (the JMH benchmarks in the bench module
 * measure properly). Run with {@code -Dquotaflow.perf=true -Dtest=PerformanceProbe}.
 */
@EnabledIfSystemProperty(named = "quotaflow.perf", matches = "true")
class PerformanceProbe {

  private static final java.lang.management.ThreadMXBean CPU =
      java.lang.management.ManagementFactory.getThreadMXBean();

  /** A tree of depth 4 with the given fan-out; leaves get pods; parents' mins fit children's. */
  static ClusterInputs tree(int fanOut, int podsPerLeaf, long seed) {
    final Random random = new Random(seed);
    final List<QuotaGroup> groups = new ArrayList<>();
    final List<QuotaPod> pods = new ArrayList<>();
    build("r", null, 1, fanOut, podsPerLeaf, random, groups, pods);
    final List<QuotaNode> nodes = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      nodes.add(
          QuotaNode.healthy(
              "node-" + i,
              ResourceList.of("cpu", 64_000L, "memory", 256L << 30, "nvidia.com/gpu", 8L)));
    }
    return new ClusterInputs(groups, pods, nodes);
  }

  private static long[] build(
      String name,
      String parent,
      int depth,
      int fanOut,
      int podsPerLeaf,
      Random random,
      List<QuotaGroup> groups,
      List<QuotaPod> pods) {
    final long[] min = new long[3];
    final boolean leaf = depth == 4;
    if (leaf) {
      min[0] = 100 + random.nextInt(400);
      min[1] = (1L << 28) + random.nextInt(1 << 28);
      min[2] = random.nextInt(2);
      for (int p = 0; p < podsPerLeaf; p++) {
        final QuotaPod.Builder pod =
            QuotaPod.builder("ns", name + "-p" + p)
                .quotaName(name)
                .request(
                    ResourceList.of(
                        "cpu",
                        50L + random.nextInt(300),
                        "memory",
                        1L << 27,
                        "nvidia.com/gpu",
                        (long) random.nextInt(2)))
                .creationTime(Instant.ofEpochSecond(random.nextInt(1000)));
        if (random.nextBoolean()) {
          pod.phase(PodPhase.RUNNING).nodeName("node-" + random.nextInt(100));
        }
        pods.add(pod.build());
      }
    } else {
      for (int c = 0; c < fanOut; c++) {
        final long[] child =
            build(name + "-" + c, name, depth + 1, fanOut, podsPerLeaf, random, groups, pods);
        for (int d = 0; d < 3; d++) {
          min[d] += child[d];
        }
      }
    }
    final QuotaGroup.Builder group =
        QuotaGroup.builder(name)
            .parentGroup(!leaf)
            .min(ResourceList.of("cpu", min[0], "memory", min[1], "nvidia.com/gpu", min[2]))
            .max(
                ResourceList.of(
                    "cpu", min[0] * 2, "memory", min[1] * 2, "nvidia.com/gpu", min[2] + 4));
    if (parent != null) {
      group.parent(parent);
    }
    groups.add(group.build());
    return min;
  }

  @Test
  void printTimings() {
    for (final int fanOut : new int[] {10, 21, 46}) {
      final ClusterInputs inputs = tree(fanOut, 3, 42);
      System.out.printf(
          "fan-out %d: %d groups, %d pods%n", fanOut, inputs.groups().size(), inputs.pods().size());
      for (int i = 0; i < 5; i++) {
        final long start = CPU.getCurrentThreadCpuTime();
        QuotaCalculator.compute(inputs, QuotaOptions.DEFAULTS);
        System.out.printf(
            "  QuotaCalculator.compute (cpu): %.2f ms%n",
            (CPU.getCurrentThreadCpuTime() - start) / 1e6);
      }
      final ClusterQuotaState state = new ClusterQuotaState(QuotaOptions.DEFAULTS);
      inputs.groups().forEach(state::putGroup);
      inputs.pods().forEach(state::putPod);
      inputs.nodes().forEach(state::putNode);
      state.recompute();
      final int passes = fanOut > 40 ? 30 : 300;
      final long[] full = new long[passes];
      for (int i = 0; i < passes; i++) {
        final long start = CPU.getCurrentThreadCpuTime();
        state.recomputeAll();
        full[i] = CPU.getCurrentThreadCpuTime() - start;
      }
      final long[] lastThird = Arrays.copyOfRange(full, passes * 2 / 3, passes);
      Arrays.sort(lastThird);
      System.out.printf(
          "  recomputeAll, every aggregate and runtime (cpu): median %.3f ms, min %.3f ms%n",
          lastThird[lastThird.length / 2] / 1e6, lastThird[0] / 1e6);
      final List<String> leaves = new ArrayList<>();
      for (final QuotaGroup g : inputs.groups()) {
        if (!g.parentGroup()) {
          leaves.add(g.name());
        }
      }
      final Random random = new Random(7);
      final int events = 20_000;
      final long[] times = new long[events];
      QuotaPod added = null;
      for (int i = 0; i < events; i++) {
        final long start = CPU.getCurrentThreadCpuTime();
        if (added == null) {
          added =
              QuotaPod.builder("ns", "extra-" + i)
                  .quotaName(leaves.get(random.nextInt(leaves.size())))
                  .request(ResourceList.of("cpu", 100L, "memory", 1L << 28))
                  .build();
          state.putPod(added);
        } else {
          state.removePod(added.ref());
          added = null;
        }
        state.recompute();
        times[i] = CPU.getCurrentThreadCpuTime() - start;
      }
      final long[] tail = Arrays.copyOfRange(times, events / 2, events);
      Arrays.sort(tail);
      System.out.printf(
          "  pod event + recompute (cpu): p50 %.1f us, p99 %.1f us, max %.1f us%n",
          tail[tail.length / 2] / 1e3,
          tail[(int) (tail.length * 0.99)] / 1e3,
          tail[tail.length - 1] / 1e3);
    }
  }
}
