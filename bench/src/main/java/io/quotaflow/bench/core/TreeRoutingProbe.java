package io.quotaflow.bench.core;

import io.quotaflow.bench.cluster.ClusterShape;
import io.quotaflow.bench.cluster.SyntheticClusterGenerator;
import io.quotaflow.profile.NodeSelector;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.profile.QuotaTrees;
import io.quotaflow.profile.ResourceRatio;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.QuotaOptions;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Thread CPU time of the quota-tree router (io.quotaflow.profile.QuotaTrees) in a synthetic cluster
 * with one ElasticQuotaProfile heading the subtree of its first top-level group: routing the whole
 * cluster in one pass (once, cold), then a group, a node and a pod event (median of 40 after 20).
 *
 * <p>Usage: {@code java -cp bench/target/benchmarks.jar io.quotaflow.bench.core.TreeRoutingProbe
 * [groups...]}
 */
public final class TreeRoutingProbe {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final int WARM_UP = 20;
  private static final int MEASURED = 40;

  private static Object sink;

  private TreeRoutingProbe() {}

  public static void main(String[] args) {
    for (final String groups : args.length == 0 ? new String[] {"1000", "10000", "100000"} : args) {
      probe(Integer.parseInt(groups));
    }
  }

  private static void probe(int groupCount) {
    final ClusterInputs inputs =
        SyntheticClusterGenerator.generate(ClusterShape.of(groupCount)).inputs();
    final String top =
        inputs.groups().stream()
            .filter(group -> group.parent().equals(SpecialGroups.ROOT))
            .findFirst()
            .orElseThrow()
            .name();
    final QuotaProfile profile =
        QuotaProfile.of("pool", top, ResourceRatio.ONE, NodeSelector.everything());

    final long start = THREADS.getCurrentThreadCpuTime();
    final QuotaTrees router = QuotaTrees.of(inputs, List.of(profile), QuotaOptions.DEFAULTS);
    System.out.printf(
        "groups %d (%d pods, %d nodes): one-pass routing with a profile tree %.1f ms (cold, once)%n",
        groupCount,
        inputs.pods().size(),
        inputs.nodes().size(),
        (THREADS.getCurrentThreadCpuTime() - start) / 1e6);

    final List<QuotaGroup> leaves =
        inputs.groups().stream().filter(group -> !group.parentGroup()).toList();
    report(
        groupCount,
        "group event",
        i -> {
          final QuotaGroup leaf = leaves.get((i * 7919) % leaves.size());
          final ResourceList raised = leaf.max().plus(ResourceList.of("cpu", 1000 + i));
          return router.putGroup(leaf.toBuilder().max(raised).build());
        });
    final QuotaNode node = inputs.nodes().get(0);
    report(
        groupCount,
        "node event",
        i -> i % 2 == 0 ? router.removeNode(node.name()) : router.putNode(node));
    final QuotaPod pod = inputs.pods().get(0);
    report(
        groupCount,
        "pod event",
        i -> i % 2 == 0 ? router.removePod(pod.ref()) : router.putPod(pod));
  }

  /** Median thread CPU time of {@code MEASURED} runs of {@code event} after {@code WARM_UP}. */
  private static void report(int groupCount, String what, IntFunction<Object> event) {
    final long[] cpu = new long[MEASURED];
    for (int i = 0; i < WARM_UP + MEASURED; i++) {
      final long start = THREADS.getCurrentThreadCpuTime();
      sink = event.apply(i);
      if (i >= WARM_UP) {
        cpu[i - WARM_UP] = THREADS.getCurrentThreadCpuTime() - start;
      }
    }
    Arrays.sort(cpu);
    System.out.printf(
        "groups %d: a %s with a profile tree, p50 %.4f ms%n",
        groupCount, what, cpu[MEASURED / 2] / 1e6);
  }
}
