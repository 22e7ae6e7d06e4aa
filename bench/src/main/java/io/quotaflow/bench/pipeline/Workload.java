package io.quotaflow.bench.pipeline;

import io.quotaflow.schemas.NodeKey;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodPhase;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.schemas.QuotaSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The generated clusters and the model of what they hold: per cluster a two-level tree (parents
 * under the root, leaves under the parents), nodes, and bound pods spread round-robin over the
 * leaves. Every pod event changes its pod's cpu request, so it changes its leaf's used cpu; the
 * model knows each leaf's used cpu after every event, which is how the bench recognises the runtime
 * record an event causes. Not thread-safe: one writer thread drives it.
 */
final class Workload {
  static final int LEAVES_PER_PARENT = 50;
  private static final Instant CREATED = Instant.parse("2026-01-01T00:00:00Z");
  private static final long BASE_CPU = 500;
  private static final long MEMORY = 1L << 30;

  private final WorkloadShape shape;
  private final int parentsPerCluster;
  private final int leavesPerCluster;

  /** Current cpu request of each pod (index = pod number). */
  private final long[] podCpu;

  /** Current used cpu of each leaf (index = cluster * leavesPerCluster + leaf). */
  private final long[] leafUsed;

  /** Pod events written so far (the version counter of the pods). */
  private long events;

  Workload(final WorkloadShape shape) {
    this.shape = shape;
    this.parentsPerCluster =
        Math.max(1, (shape.groupsPerCluster() + LEAVES_PER_PARENT) / (LEAVES_PER_PARENT + 1));
    this.leavesPerCluster = shape.groupsPerCluster() - parentsPerCluster;
    if (leavesPerCluster < 1 || shape.pods() < leafCount()) {
      throw new IllegalArgumentException("need at least one pod per leaf group: " + shape);
    }
    this.podCpu = new long[shape.pods()];
    this.leafUsed = new long[leafCount()];
  }

  WorkloadShape shape() {
    return shape;
  }

  int leafCount() {
    return shape.clusters() * leavesPerCluster;
  }

  int podCount() {
    return podCpu.length;
  }

  static String cluster(final int c) {
    return String.format("cluster-%02d", c);
  }

  private static String parent(final int p) {
    return String.format("parent-%03d", p);
  }

  private static String leaf(final int l) {
    return String.format("team-%04d", l);
  }

  /** The global leaf number of {@code (cluster, group)}, or -1 for a parent or special group. */
  int leafIndex(final String cluster, final String group) {
    if (!group.startsWith("team-")) {
      return -1;
    }
    return Integer.parseInt(cluster.substring("cluster-".length())) * leavesPerCluster
        + Integer.parseInt(group.substring("team-".length()));
  }

  /** The quota groups of every cluster: parents first, then leaves. */
  Map<QuotaKey, QuotaSpec> quotas() {
    final Map<QuotaKey, QuotaSpec> quotas = new HashMap<>();
    final long leafMin = leafMinCpu();
    for (int c = 0; c < shape.clusters(); c++) {
      for (int p = 0; p < parentsPerCluster; p++) {
        quotas.put(
            new QuotaKey(cluster(c), parent(p)),
            spec(null, true, leafMin * LEAVES_PER_PARENT, leafMin * LEAVES_PER_PARENT * 4));
      }
      for (int l = 0; l < leavesPerCluster; l++) {
        quotas.put(
            new QuotaKey(cluster(c), leaf(l)),
            spec(parent(l % parentsPerCluster), false, leafMin, leafMin * 8));
      }
    }
    return quotas;
  }

  private static QuotaSpec spec(
      final String parent, final boolean isParent, final long minCpu, final long maxCpu) {
    return QuotaSpec.newBuilder()
        .setMin(Map.of("cpu", minCpu, "memory", MEMORY * minCpu / BASE_CPU))
        .setMax(Map.of("cpu", maxCpu, "memory", MEMORY * maxCpu / BASE_CPU))
        .setParent(parent)
        .setIsParent(isParent)
        .setSharedWeight(null)
        .setAllowLent(true)
        .setLendingLimit(null)
        .setBorrowingLimit(null)
        .setNamespaces(List.of())
        .setProblems(List.of())
        .build();
  }

  /** The nodes of every cluster: enough cpu for all its pods at twice their base request. */
  Map<NodeKey, NodeState> nodes() {
    final Map<NodeKey, NodeState> nodes = new HashMap<>();
    final int podsPerCluster = shape.pods() / shape.clusters();
    final long cpuPerNode = 64_000;
    final int count = (int) Math.max(1, podsPerCluster * BASE_CPU * 2 / cpuPerNode);
    for (int c = 0; c < shape.clusters(); c++) {
      for (int n = 0; n < count; n++) {
        nodes.put(
            new NodeKey(cluster(c), String.format("node-%04d", n)),
            NodeState.newBuilder()
                .setAllocatable(Map.of("cpu", cpuPerNode, "memory", MEMORY * 256))
                .setReady(true)
                .setSchedulable(true)
                .setDeleting(false)
                .setProblems(List.of())
                .build());
      }
    }
    return nodes;
  }

  /** The cluster of pod {@code pod}: pods are spread round-robin over the clusters. */
  private int clusterOf(final int pod) {
    return pod % shape.clusters();
  }

  /** The leaf (within its cluster) of pod {@code pod}. */
  private int leafOf(final int pod) {
    return (pod / shape.clusters()) % leavesPerCluster;
  }

  private int globalLeafOf(final int pod) {
    return clusterOf(pod) * leavesPerCluster + leafOf(pod);
  }

  /**
   * The next event of pod {@code pod}: its first version (a bound, running pod), or an update of
   * its cpu request. Updates the model.
   */
  PodEvent event(final int pod) {
    long cpu = BASE_CPU + (events++ % 7) * 10 + 10;
    if (cpu == podCpu[pod]) {
      // Every event must change its leaf's used cpu, or it would cause no runtime record.
      cpu += 5;
    }
    final int leaf = globalLeafOf(pod);
    leafUsed[leaf] += cpu - podCpu[pod];
    podCpu[pod] = cpu;
    final int c = clusterOf(pod);
    final int l = leafOf(pod);
    final String name = String.format("pod-%07d", pod);
    final PodKey key = new PodKey(cluster(c), leaf(l), name);
    final PodState value =
        runningPod(
            name,
            leaf(l),
            String.format("node-%04d", pod % nodesPerCluster()),
            pod % 3,
            cpu,
            CREATED.plusSeconds(pod));
    return new PodEvent(key, value, leaf, leafUsed[leaf]);
  }

  /** A bound, running pod of group {@code group}, as the connectors would write it. */
  static PodState runningPod(
      final String name,
      final String group,
      final String node,
      final int priority,
      final long cpu,
      final Instant created) {
    return PodState.newBuilder()
        .setUid(name + "-uid")
        .setQuotaName(group)
        .setPhase(PodPhase.RUNNING)
        .setNodeName(node)
        .setPriority(priority)
        .setRequests(Map.of("cpu", cpu, "memory", MEMORY))
        .setPreemptible(true)
        .setCreationTime(created)
        .setStartTime(created.plusSeconds(5))
        .setDeletionTime(null)
        .setProblems(List.of())
        .build();
  }

  /**
   * The spec of a leaf group under parent number {@code parent} of its cluster, with these cpu
   * bounds (memory in proportion), as {@link #quotas()} makes the leaves'.
   */
  static QuotaSpec leafSpec(final int parent, final long minCpu, final long maxCpu) {
    return spec(parent(parent), false, minCpu, maxCpu);
  }

  /** A leaf's min cpu in {@link #quotas()}; a parent's is {@link #LEAVES_PER_PARENT} times it. */
  static long leafMinCpu() {
    return BASE_CPU * 4;
  }

  /** Leaf groups under each parent of a cluster (the last parents may have one fewer). */
  int leavesPerParent() {
    return (leavesPerCluster + parentsPerCluster - 1) / parentsPerCluster;
  }

  private int nodesPerCluster() {
    final int podsPerCluster = shape.pods() / shape.clusters();
    return (int) Math.max(1, podsPerCluster * BASE_CPU * 2 / 64_000);
  }

  /**
   * The pod whose event is number {@code i} of a stream that visits every leaf once before any leaf
   * again (so at a fixed rate a leaf sees one event per {@code leafCount / rate} seconds).
   */
  int podVisitingLeaves(final long i) {
    final int leaves = leafCount();
    final int leaf = (int) (i % leaves);
    final int round = (int) (i / leaves);
    // Pods of global leaf (c, l) are c + clusters * (l + leavesPerCluster * k), k = 0, 1, ...
    final int c = leaf / leavesPerCluster;
    final int l = leaf % leavesPerCluster;
    final int maxK =
        (shape.pods() - 1 - c - shape.clusters() * l) / (shape.clusters() * leavesPerCluster);
    final int k = round % (maxK + 1);
    return c + shape.clusters() * (l + leavesPerCluster * k);
  }

  /** The used cpu of every leaf now, by global leaf number. */
  long[] leafUsed() {
    return leafUsed.clone();
  }

  /** Leaves of every cluster, as runtime keys. */
  List<QuotaKey> leafKeys() {
    final List<QuotaKey> keys = new ArrayList<>(leafCount());
    for (int c = 0; c < shape.clusters(); c++) {
      for (int l = 0; l < leavesPerCluster; l++) {
        keys.add(new QuotaKey(cluster(c), leaf(l)));
      }
    }
    return keys;
  }

  /** One pod record and what it makes its leaf's used cpu. */
  record PodEvent(PodKey key, PodState value, int leaf, long leafUsedCpu) {}
}
