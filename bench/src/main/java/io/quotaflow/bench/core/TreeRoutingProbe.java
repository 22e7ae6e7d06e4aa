package io.quotaflow.bench.core;

import io.quotaflow.bench.cluster.ClusterShape;
import io.quotaflow.bench.cluster.SyntheticCluster;
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

/**
 * Thread CPU time of the quota-tree router (io.quotaflow.profile.QuotaTrees) in a synthetic cluster
 * with one ElasticQuotaProfile heading the subtree of its first top-level group: routing the whole
 * cluster in one pass (once, cold), then a group, a node and a pod event (median of 40 after 20).
 *
 * <p>Usage: {@code java -cp bench/target/benchmarks.jar io.quotaflow.bench.core.TreeRoutingProbe
 * [groups...]}
 */
public final class TreeRoutingProbe {
  static Object sink;

  private TreeRoutingProbe() {}

  public static void main(String[] args) {
    for (final String groups : args.length == 0 ? new String[] {"1000", "10000", "100000"} : args) {
      probe(groups);
    }
  }

  private static void probe(String groups) {
    final String[] a = {groups};
    SyntheticCluster c =
        SyntheticClusterGenerator.generate(ClusterShape.of(Integer.parseInt(a[0])));
    ClusterInputs in = c.inputs();
    // A profile heading the subtree of the first top-level parent group.
    String top =
        in.groups().stream()
            .filter(g -> g.parent().equals(SpecialGroups.ROOT))
            .findFirst()
            .get()
            .name();
    QuotaProfile p = QuotaProfile.of("pool", top, ResourceRatio.ONE, NodeSelector.everything());
    ThreadMXBean t = ManagementFactory.getThreadMXBean();
    long s = t.getCurrentThreadCpuTime();
    QuotaTrees r = QuotaTrees.of(in, List.of(p), QuotaOptions.DEFAULTS);
    System.out.printf(
        "one-pass routing with a profile tree: %.1f ms (trees %s)%n",
        (t.getCurrentThreadCpuTime() - s) / 1e6, r.trees());
    List<QuotaGroup> leaves = in.groups().stream().filter(g -> !g.parentGroup()).toList();
    long[] cpu = new long[40];
    for (int i = 0; i < 60; i++) {
      QuotaGroup g = leaves.get((i * 7919) % leaves.size());
      QuotaGroup changed =
          g.toBuilder().max(g.max().plus(ResourceList.of("cpu", 1000 + i))).build();
      long st = t.getCurrentThreadCpuTime();
      sink = r.putGroup(changed);
      if (i >= 20) cpu[i - 20] = t.getCurrentThreadCpuTime() - st;
    }
    Arrays.sort(cpu);
    System.out.printf(
        "groups %s: a group event with a profile tree: p50 %.2f ms%n", a[0], cpu[20] / 1e6);
    QuotaNode n = in.nodes().get(0);
    for (int i = 0; i < 60; i++) {
      long st = t.getCurrentThreadCpuTime();
      sink = (i % 2 == 0) ? r.removeNode(n.name()) : r.putNode(n);
      if (i >= 20) cpu[i - 20] = t.getCurrentThreadCpuTime() - st;
    }
    Arrays.sort(cpu);
    System.out.printf(
        "groups %s nodes %d: a node event with a profile tree: p50 %.2f ms%n",
        a[0], in.nodes().size(), cpu[20] / 1e6);
    QuotaPod pod = in.pods().get(0);
    for (int i = 0; i < 60; i++) {
      long st = t.getCurrentThreadCpuTime();
      sink = (i % 2 == 0) ? r.removePod(pod.ref()) : r.putPod(pod);
      if (i >= 20) cpu[i - 20] = t.getCurrentThreadCpuTime() - st;
    }
    Arrays.sort(cpu);
    System.out.printf(
        "groups %s: a pod event with a profile tree: p50 %.4f ms%n", a[0], cpu[20] / 1e6);
  }
}
