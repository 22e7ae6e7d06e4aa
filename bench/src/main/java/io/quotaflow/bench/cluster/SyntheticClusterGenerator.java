package io.quotaflow.bench.cluster;

import static io.quotaflow.bench.cluster.Dimensions.GI;

import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.ClusterInputs;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Generates a deterministic, realistic quota tree for the benchmarks.
 *
 * <p>Mins are drawn for the leaves and summed upward with 0-5 % headroom per parent, so below the
 * first level the children's mins always fit in the parent's min (as the validating webhook
 * demands) and the first level's mins fit in the cluster. A quarter of the leaves track GPUs;
 * parents track a GPU only when some child does. The leaves mix idle groups (no pods), lenders
 * (request below min), groups near their min and borrowers (request 2-5 times min); some groups
 * refuse to lend, some have max equal to min, some carry an explicit shared-weight. The nodes add
 * up to 5 % more than the first level's mins, which is well below what the leaves ask for, so the
 * surplus split runs at every level.
 */
public final class SyntheticClusterGenerator {

  private static final int DIMS = 3;
  private static final int CPU = 0;
  private static final int MEMORY = 1;
  private static final int GPU = 2;

  private static final long NODE_CPU = 64_000L;
  private static final long GPUS_PER_NODE = 8L;
  private static final double TOTAL_OVER_FIRST_LEVEL_MINS = 1.05;

  private final ClusterShape shape;
  private final SplittableRandom random;
  private final List<Draft> drafts = new ArrayList<>();
  private final List<QuotaPod> pods = new ArrayList<>();
  private final long[] leafDemand = new long[DIMS];

  private SyntheticClusterGenerator(ClusterShape shape) {
    this.shape = shape;
    this.random = new SplittableRandom(shape.seed());
  }

  /** The cluster of this shape; the same shape always gives an equal cluster. */
  public static SyntheticCluster generate(ClusterShape shape) {
    return new SyntheticClusterGenerator(shape).build();
  }

  private SyntheticCluster build() {
    final int[] sizes = shape.levelSizes();
    final List<List<Draft>> levels = createTree(sizes);
    final List<Draft> leaves = levels.get(ClusterShape.DEPTH - 1);
    leaves.forEach(this::specifyLeaf);
    for (int level = ClusterShape.DEPTH - 2; level >= 0; level--) {
      levels.get(level).forEach(this::specifyParent);
    }
    leaves.forEach(this::createPods);

    final long[] firstLevelMins = new long[DIMS];
    for (final Draft group : levels.get(0)) {
      for (int d = 0; d < DIMS; d++) {
        firstLevelMins[d] += group.min[d];
      }
    }
    final List<QuotaNode> nodes = createNodes(firstLevelMins);
    final ResourceList total =
        nodes.stream().map(QuotaNode::allocatable).reduce(ResourceList.empty(), ResourceList::plus);
    final ResourceList demand = resources(leafDemand, true);
    for (final String dimension : Dimensions.ALL) {
      if (total.get(dimension) >= demand.get(dimension)) {
        throw new IllegalStateException(
            "no contention in " + dimension + ": total " + total + ", demand " + demand);
      }
    }

    final List<QuotaGroup> groups = drafts.stream().map(this::toGroup).toList();
    final List<SyntheticCluster.Leaf> leafList =
        leaves.stream().map(leaf -> new SyntheticCluster.Leaf(leaf.name, leaf.tracksGpu)).toList();
    return new SyntheticCluster(
        shape, new ClusterInputs(groups, pods, nodes), leafList, total, demand);
  }

  /** Places the groups level by level; every parent gets at least one child, then at random. */
  private List<List<Draft>> createTree(int[] sizes) {
    final String[] prefixes = {"org", "dept", "team", "leaf"};
    final List<List<Draft>> levels = new ArrayList<>();
    for (int level = 0; level < ClusterShape.DEPTH; level++) {
      final List<Draft> current = new ArrayList<>(sizes[level]);
      final List<Draft> above = level == 0 ? List.of() : levels.get(level - 1);
      for (int i = 0; i < sizes[level]; i++) {
        final Draft parent =
            level == 0
                ? null
                : i < above.size() ? above.get(i) : above.get(random.nextInt(above.size()));
        final Draft draft =
            new Draft(
                String.format("%s-%06d", prefixes[level], i),
                parent == null ? SpecialGroups.ROOT : parent.name,
                level < ClusterShape.DEPTH - 1);
        if (parent != null) {
          parent.children.add(draft);
        }
        current.add(draft);
        drafts.add(draft);
      }
      levels.add(current);
    }
    return levels;
  }

  private void specifyLeaf(Draft leaf) {
    leaf.tracksGpu = random.nextInt(4) == 0;
    leaf.min[CPU] = 500L * random.nextInt(8, 65);
    leaf.min[MEMORY] = GI * random.nextInt(8, 129);
    leaf.min[GPU] = leaf.tracksGpu ? random.nextInt(1, 9) : 0;
    final boolean hardCapped = random.nextInt(10) == 0;
    final double maxFactor = hardCapped ? 1.0 : random.nextDouble(1.5, 4.0);
    for (int d = 0; d < DIMS; d++) {
      leaf.max[d] = (long) Math.ceil(leaf.min[d] * maxFactor);
    }
    leaf.allowLent = random.nextInt(100) >= 15;
    drawWeight(leaf);
  }

  private void specifyParent(Draft parent) {
    final double headroom = random.nextDouble(1.0, 1.05);
    for (final Draft child : parent.children) {
      parent.tracksGpu |= child.tracksGpu;
      for (int d = 0; d < DIMS; d++) {
        parent.min[d] += child.min[d];
      }
    }
    final double maxFactor = random.nextDouble(1.2, 2.5);
    for (int d = 0; d < DIMS; d++) {
      parent.min[d] = (long) Math.floor(parent.min[d] * headroom);
      parent.max[d] = (long) Math.ceil(parent.min[d] * maxFactor);
    }
    parent.allowLent = random.nextInt(100) >= 10;
    drawWeight(parent);
  }

  private void drawWeight(Draft group) {
    if (random.nextInt(10) < 3) {
      group.weight = new long[] {1000L * random.nextInt(1, 11), GI * random.nextInt(1, 11), 0};
      group.weight[GPU] = random.nextInt(1, 11);
    }
  }

  /** Pods whose requests add up to the leaf's demand profile; 70 % of them are running. */
  private void createPods(Draft leaf) {
    final int profile = random.nextInt(100);
    if (profile < 10) {
      addDemand(leaf, new long[DIMS]);
      return; // idle: a pure lender (or, if it refuses to lend, a reserved min)
    }
    final double factor;
    if (profile < 30) {
      factor = random.nextDouble(0.2, 0.9); // lender
    } else if (profile < 50) {
      factor = random.nextDouble(0.9, 1.1); // about its min
    } else {
      factor = random.nextDouble(2.0, 5.0); // borrower
    }
    final long[] demand = new long[DIMS];
    for (int d = 0; d < DIMS; d++) {
      demand[d] = Math.round(leaf.min[d] * factor * random.nextDouble(0.8, 1.2));
    }
    final int podCount = random.nextInt(1, 9);
    final long[] requested = new long[DIMS];
    for (int p = 0; p < podCount; p++) {
      final double share = random.nextDouble(0.5, 1.5) / podCount;
      final long cpu = Math.max(100L, roundDown((long) (demand[CPU] * share), 100L));
      final long memory = Math.max(64L << 20, roundDown((long) (demand[MEMORY] * share), 1L << 20));
      final long gpu = demand[GPU] / podCount + (p < demand[GPU] % podCount ? 1 : 0);
      final ResourceList request =
          leaf.tracksGpu
              ? ResourceList.of(Dimensions.CPU, cpu, Dimensions.MEMORY, memory, Dimensions.GPU, gpu)
              : ResourceList.of(Dimensions.CPU, cpu, Dimensions.MEMORY, memory);
      requested[CPU] += cpu;
      requested[MEMORY] += memory;
      requested[GPU] += leaf.tracksGpu ? gpu : 0;
      final QuotaPod.Builder pod =
          QuotaPod.builder(leaf.name, "pod-" + p)
              .quotaName(leaf.name)
              .request(request)
              .priority(random.nextInt(0, 1000))
              .creationTime(Instant.EPOCH.plusSeconds(pods.size()));
      if (random.nextInt(10) < 7) {
        pod.running(nodeName(pods.size() % 64));
      }
      pods.add(pod.build());
    }
    addDemand(leaf, requested);
  }

  private void addDemand(Draft leaf, long[] requested) {
    for (int d = 0; d < DIMS; d++) {
      final long floored = leaf.allowLent ? requested[d] : Math.max(requested[d], leaf.min[d]);
      leafDemand[d] += Math.min(floored, leaf.max[d]);
    }
  }

  /**
   * Nodes whose allocatable adds up to exactly 5 % more than the first level's mins, in every
   * dimension. Pods were bound to the first 64 node names; there are always at least that many.
   */
  private List<QuotaNode> createNodes(long[] firstLevelMins) {
    final long[] target = new long[DIMS];
    for (int d = 0; d < DIMS; d++) {
      target[d] = (long) Math.ceil(firstLevelMins[d] * TOTAL_OVER_FIRST_LEVEL_MINS);
    }
    final int nodeCount = (int) Math.max(64, ceilDiv(target[CPU], NODE_CPU));
    final int gpuNodes = (int) Math.min(nodeCount, ceilDiv(target[GPU], GPUS_PER_NODE));
    final List<QuotaNode> nodes = new ArrayList<>(nodeCount);
    for (int n = 0; n < nodeCount; n++) {
      final long cpu = evenShare(target[CPU], nodeCount, n);
      final long memory = evenShare(target[MEMORY], nodeCount, n);
      final ResourceList allocatable =
          n < gpuNodes
              ? Dimensions.cpuMemoryGpu(cpu, memory, evenShare(target[GPU], gpuNodes, n))
              : Dimensions.cpuMemory(cpu, memory);
      nodes.add(QuotaNode.healthy(nodeName(n), allocatable));
    }
    return nodes;
  }

  /** Part {@code index} of {@code total} split into {@code parts} near-equal integers. */
  private static long evenShare(long total, int parts, int index) {
    return total / parts + (index < total % parts ? 1 : 0);
  }

  private QuotaGroup toGroup(Draft draft) {
    final QuotaGroup.Builder builder =
        QuotaGroup.builder(draft.name)
            .parent(draft.parent)
            .parentGroup(draft.parentGroup)
            .min(resources(draft.min, draft.tracksGpu))
            .max(resources(draft.max, draft.tracksGpu))
            .allowLent(draft.allowLent);
    if (draft.weight != null) {
      builder.sharedWeight(resources(draft.weight, draft.tracksGpu));
    }
    return builder.build();
  }

  private static ResourceList resources(long[] amounts, boolean withGpu) {
    return withGpu
        ? ResourceList.of(
            Dimensions.CPU,
            amounts[CPU],
            Dimensions.MEMORY,
            amounts[MEMORY],
            Dimensions.GPU,
            amounts[GPU])
        : ResourceList.of(Dimensions.CPU, amounts[CPU], Dimensions.MEMORY, amounts[MEMORY]);
  }

  private static String nodeName(int index) {
    return String.format("node-%05d", index);
  }

  private static long roundDown(long value, long unit) {
    return value / unit * unit;
  }

  private static long ceilDiv(long value, long divisor) {
    return -Math.floorDiv(-value, divisor);
  }

  /** A group while it is being generated. */
  private static final class Draft {
    private final String name;
    private final String parent;
    private final boolean parentGroup;
    private final List<Draft> children = new ArrayList<>();
    private final long[] min = new long[DIMS];
    private final long[] max = new long[DIMS];
    private long[] weight;
    private boolean allowLent = true;
    private boolean tracksGpu;

    private Draft(String name, String parent, boolean parentGroup) {
      this.name = name;
      this.parent = parent;
      this.parentGroup = parentGroup;
    }
  }
}
