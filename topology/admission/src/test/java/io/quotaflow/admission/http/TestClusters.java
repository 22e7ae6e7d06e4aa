package io.quotaflow.admission.http;

import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.cpuMemory;
import static io.quotaflow.tree.Fixtures.parentQuota;
import static io.quotaflow.tree.Fixtures.quota;

import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.Fixtures;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaCalculator;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.TreeSnapshot;
import java.util.ArrayList;
import java.util.List;

/**
 * The example cluster of the plugin's tests, {@code east}: 10 cores and 40 GiB.
 *
 * <pre>
 * research  [parent] min 8 cores, max 10
 *   team-a  min 4 cores, max 6, lends nothing, namespaces [alpha]; one running pod of 1 core
 *   team-b  min 2 cores, max 8, lends nothing
 * ops       min 1 core, max 2, lends nothing
 * </pre>
 */
public final class TestClusters {

  public static final String EAST = "east";
  public static final long GIB = 1L << 30;

  private TestClusters() {}

  public static Fixtures.ClusterBuilder east() {
    return Fixtures.cluster()
        .total(cpuMemory(10_000, 40 * GIB))
        .group(parentQuota("research").min(cpu(8_000)).max(cpu(10_000)))
        .group(
            quota("team-a")
                .parent("research")
                .min(cpu(4_000))
                .max(cpu(6_000))
                .allowLent(false)
                .namespaces(List.of("alpha")))
        .group(
            quota("team-b")
                .parent("research")
                .min(cpu(2_000))
                .max(cpu(8_000))
                .allowLent(false)
                .namespace("beta"))
        .group(quota("ops").min(cpu(1_000)).max(cpu(2_000)).allowLent(false))
        .pod(running("alpha", "a-1", "team-a", 1_000));
  }

  public static QuotaPod running(String namespace, String name, String group, long milliCpu) {
    return QuotaPod.builder(namespace, name)
        .quotaName(group)
        .request(ResourceList.of(ResourceList.CPU, milliCpu))
        .phase(PodPhase.RUNNING)
        .nodeName("node-1")
        .build();
  }

  /** A state holding {@code east}. */
  public static SnapshotClusterState state() {
    return state(east());
  }

  public static SnapshotClusterState state(Fixtures.ClusterBuilder cluster) {
    return new SnapshotClusterState().put(EAST, cluster.inputs(), QuotaOptions.DEFAULTS);
  }

  /**
   * The largest cpu request a new pod of {@code group} is admitted with: found by full
   * recomputations with the pod added as pending, the largest request for which {@code used +
   * request <= runtime} at the group and every ancestor. In {@code east}, team-a's room is 5 cores,
   * not its current runtime − used (3): with the pod counted, team-a borrows up to its max of 6
   * (research may receive 9, ops keeps its 1).
   */
  public static long room(SnapshotClusterState state, String group) {
    long fits = 0;
    long tooBig = 1L << 40;
    while (tooBig - fits > 1) {
      final long middle = (fits + tooBig) >>> 1;
      if (fitsWith(state, group, middle)) {
        fits = middle;
      } else {
        tooBig = middle;
      }
    }
    return fits;
  }

  /** The cpu runtime of {@code group} after a full recomputation with a pending pod added. */
  public static long runtimeWithPod(SnapshotClusterState state, String group, long milliCpu) {
    return withPod(state, group, milliCpu)
        .group(group)
        .orElseThrow()
        .runtime()
        .get(ResourceList.CPU);
  }

  private static boolean fitsWith(SnapshotClusterState state, String group, long milliCpu) {
    final TreeSnapshot with = withPod(state, group, milliCpu);
    final TreeSnapshot before = state.snapshot(EAST).orElseThrow();
    String name = group;
    while (!SpecialGroups.ROOT.equals(name)) {
      final GroupStatus status = with.group(name).orElseThrow();
      final long used = before.group(name).orElseThrow().used().get(ResourceList.CPU);
      if (used + milliCpu > status.runtime().get(ResourceList.CPU)) {
        return false;
      }
      name = status.parent();
    }
    return true;
  }

  private static TreeSnapshot withPod(SnapshotClusterState state, String group, long milliCpu) {
    final ClusterInputs inputs = state.inputs(EAST).orElseThrow();
    final List<QuotaPod> pods = new ArrayList<>(inputs.pods());
    // The probe lives in the namespace of the group's ElasticQuota, which binds its label.
    final String namespace =
        inputs.groups().stream()
            .filter(spec -> spec.name().equals(group))
            .map(spec -> spec.namespace())
            .findFirst()
            .orElse("room");
    pods.add(
        QuotaPod.builder(namespace, "probe")
            .quotaName(group)
            .request(ResourceList.of(ResourceList.CPU, milliCpu))
            .build());
    return QuotaCalculator.compute(
        new ClusterInputs(inputs.groups(), pods, inputs.nodes()),
        state.options(EAST).orElseThrow());
  }

  public static GroupStatus status(SnapshotClusterState state, String group) {
    final TreeSnapshot snapshot = state.snapshot(EAST).orElseThrow();
    return snapshot.group(group).orElseThrow();
  }

  public static boolean isSpecial(String name) {
    return SpecialGroups.isSpecial(name);
  }
}
