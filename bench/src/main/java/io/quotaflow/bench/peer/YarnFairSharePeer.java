package io.quotaflow.bench.peer;

import io.quotaflow.bench.cluster.Dimensions;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.ClusterInputs;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.policies.ComputeFairShares;

/**
 * The peer we compare the quota core with: the same tree's shares computed by the YARN Fair
 * Scheduler's {@code ComputeFairShares.computeShares}, top down, one parent and one dimension at a
 * time.
 *
 * <p>The mapping, per dimension: the group's demand is built bottom up exactly as SPEC 6 does (own
 * pods plus the children's limited requests, floored at min for a non-lender, capped at max); then
 * every parent's share is split among its children with {@code minShare = min(min, limited
 * request)}, {@code maxShare = limited request} and {@code weight} = the group's shared weight
 * (explicit, else max, as with the default weight policy). The root's share is the sum of the
 * nodes' allocatable. A lender therefore gets exactly its request, a non-lender at least its min
 * and a borrower a weighted share between min and request, as in quotaflow; YARN finds that share
 * with a 25-step floating-point binary search instead of quotaflow's exact integer water-filling.
 *
 * <p>The tree is indexed once, in the constructor, and each pod is resolved to its group and its
 * request read into longs there (a YARN application knows its queue). {@link #compute()} does what
 * YARN's update does whenever something changes: sum the pods' requests, aggregate demand up the
 * tree and split shares down it, reusing its arrays and queue objects so that the peer pays for
 * nothing but the computation.
 */
public final class YarnFairSharePeer {

  private static final int DIMS = Dimensions.ALL.size();
  private static final int ROOT = 0;
  private static final long UNBOUNDED = Long.MAX_VALUE;

  private final String[] names;
  private final int[] parentOf;
  private final int[] topDown;
  private final boolean[][] tracks;
  private final long[][] min;
  private final long[][] max;
  private final float[][] weight;
  private final boolean[] allowLent;
  private final int[] podGroup;
  private final long[] podRequest;
  private final long[][] nodeAllocatable;
  private final List<List<List<Integer>>> childrenByDimension;
  private final PeerQueue[] queues;
  private final List<List<List<PeerQueue>>> queuesByDimension;

  private final long[][] request;
  private final long[][] limited;
  private final long[][] shares;
  private final Resource parentShare;

  /** Indexes the groups, pods and nodes of one cluster. */
  public YarnFairSharePeer(ClusterInputs inputs) {
    YarnResourceTypes.register();
    parentShare = Resource.newInstance(0L, 0);
    final List<QuotaGroup> groups = new ArrayList<>(inputs.groups());
    final int count = groups.size() + 1;
    names = new String[count];
    names[ROOT] = SpecialGroups.ROOT;
    final Map<String, Integer> index = new HashMap<>();
    index.put(SpecialGroups.ROOT, ROOT);
    for (int i = 0; i < groups.size(); i++) {
      names[i + 1] = groups.get(i).name();
      index.put(names[i + 1], i + 1);
    }

    parentOf = new int[count];
    tracks = new boolean[count][DIMS];
    min = new long[count][DIMS];
    max = new long[count][DIMS];
    weight = new float[count][DIMS];
    allowLent = new boolean[count];
    final List<List<Integer>> children = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      children.add(new ArrayList<>());
    }
    parentOf[ROOT] = -1;
    for (int i = 1; i < count; i++) {
      final QuotaGroup group = groups.get(i - 1);
      final Integer parent = index.get(group.parent());
      if (parent == null) {
        throw new IllegalArgumentException("unknown parent of " + group.name());
      }
      parentOf[i] = parent;
      children.get(parent).add(i);
      allowLent[i] = group.allowLent();
      final ResourceList explicitWeight = group.sharedWeight().orElse(ResourceList.empty());
      final boolean hasWeight = explicitWeight.asMap().values().stream().anyMatch(w -> w > 0);
      for (int d = 0; d < DIMS; d++) {
        final String dimension = Dimensions.ALL.get(d);
        tracks[i][d] = group.min().contains(dimension) || group.max().contains(dimension);
        min[i][d] = group.min().get(dimension);
        max[i][d] = group.max().contains(dimension) ? group.max().get(dimension) : UNBOUNDED;
        weight[i][d] =
            hasWeight ? explicitWeight.get(dimension) : (float) group.max().get(dimension);
      }
    }
    tracks[ROOT] = new boolean[] {true, true, true};

    topDown = breadthFirst(children, count);
    childrenByDimension = new ArrayList<>(count);
    queues = new PeerQueue[count];
    for (int i = 0; i < count; i++) {
      queues[i] = new PeerQueue(names[i]);
    }
    queuesByDimension = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      final List<List<Integer>> perDimension = new ArrayList<>(DIMS);
      final List<List<PeerQueue>> queuesPerDimension = new ArrayList<>(DIMS);
      for (int d = 0; d < DIMS; d++) {
        final List<Integer> tracking = new ArrayList<>();
        final List<PeerQueue> trackingQueues = new ArrayList<>();
        for (final int child : children.get(i)) {
          if (tracks[child][d]) {
            tracking.add(child);
            trackingQueues.add(queues[child]);
          }
        }
        perDimension.add(List.copyOf(tracking));
        queuesPerDimension.add(Collections.unmodifiableList(trackingQueues));
      }
      childrenByDimension.add(perDimension);
      queuesByDimension.add(queuesPerDimension);
    }

    // Like a YARN application, each pod knows its queue; what it asks is already parsed.
    final List<QuotaPod> counted = new ArrayList<>();
    for (final QuotaPod pod : inputs.pods()) {
      final Integer group = pod.quotaName().map(index::get).orElse(null);
      // Finished pods ask for nothing; the default group's pods take no part in the split.
      if (!pod.phase().isFinished() && group != null && group != ROOT) {
        counted.add(pod);
      }
    }
    podGroup = new int[counted.size()];
    podRequest = new long[counted.size() * DIMS];
    for (int p = 0; p < counted.size(); p++) {
      final QuotaPod pod = counted.get(p);
      podGroup[p] = index.get(pod.quotaName().orElseThrow());
      for (int d = 0; d < DIMS; d++) {
        if (tracks[podGroup[p]][d]) {
          podRequest[p * DIMS + d] = pod.request().get(Dimensions.ALL.get(d));
        }
      }
    }
    nodeAllocatable =
        inputs.nodes().stream()
            .filter(node -> !node.deleting())
            .map(QuotaNode::allocatable)
            .map(allocatable -> Dimensions.ALL.stream().mapToLong(allocatable::get).toArray())
            .toArray(long[][]::new);

    request = new long[count][DIMS];
    limited = new long[count][DIMS];
    shares = new long[count][DIMS];
  }

  private static int[] breadthFirst(List<List<Integer>> children, int count) {
    final int[] order = new int[count];
    final Deque<Integer> queue = new ArrayDeque<>();
    queue.add(ROOT);
    int next = 0;
    while (!queue.isEmpty()) {
      final int group = queue.poll();
      order[next++] = group;
      queue.addAll(children.get(group));
    }
    if (next != count) {
      throw new IllegalArgumentException("the groups do not form one tree under the root");
    }
    return order;
  }

  /**
   * Recomputes every share: pods' requests, demand bottom up, then {@code ComputeFairShares} top
   * down. Returns the shares indexed like {@link #names()}, dimensions in {@link Dimensions#ALL}
   * order. The array is reused by the next call.
   */
  public long[][] compute() {
    for (final long[] row : request) {
      Arrays.fill(row, 0L);
    }
    for (final long[] row : shares) {
      Arrays.fill(row, 0L);
    }
    for (int p = 0; p < podGroup.length; p++) {
      final long[] own = request[podGroup[p]];
      for (int d = 0; d < DIMS; d++) {
        own[d] += podRequest[p * DIMS + d];
      }
    }
    for (int k = topDown.length - 1; k > 0; k--) {
      final int group = topDown[k];
      final int parent = parentOf[group];
      for (int d = 0; d < DIMS; d++) {
        if (!tracks[group][d]) {
          continue;
        }
        long demand = request[group][d];
        if (!allowLent[group]) {
          demand = Math.max(demand, min[group][d]);
        }
        request[group][d] = demand;
        limited[group][d] = Math.min(demand, max[group][d]);
        if (tracks[parent][d]) {
          request[parent][d] += limited[group][d];
        }
      }
    }
    for (final long[] allocatable : nodeAllocatable) {
      for (int d = 0; d < DIMS; d++) {
        shares[ROOT][d] += allocatable[d];
      }
    }
    for (final int parent : topDown) {
      final List<List<Integer>> childrenOf = childrenByDimension.get(parent);
      for (int d = 0; d < DIMS; d++) {
        final List<Integer> children = childrenOf.get(d);
        if (children.isEmpty()) {
          continue;
        }
        for (final int child : children) {
          queues[child].load(
              Math.min(min[child][d], limited[child][d]), limited[child][d], weight[child][d]);
        }
        parentShare.setMemorySize(shares[parent][d]);
        ComputeFairShares.computeShares(
            queuesByDimension.get(parent).get(d), parentShare, ResourceInformation.MEMORY_URI);
        for (final int child : children) {
          shares[child][d] = queues[child].share();
        }
      }
    }
    return shares;
  }

  /** Group names by index; index 0 is the virtual root. */
  public List<String> names() {
    return List.of(names);
  }

  /** The parent's index of each group; -1 for the root. */
  public int parentOf(int group) {
    return parentOf[group];
  }

  /** Whether the group tracks the dimension (index into {@link Dimensions#ALL}). */
  public boolean tracks(int group, int dimension) {
    return tracks[group][dimension];
  }

  /** The limited request of the last {@link #compute()}. */
  public long limitedRequest(int group, int dimension) {
    return limited[group][dimension];
  }

  /** The min share given to YARN in the last {@link #compute()}: min capped at the request. */
  public long minShare(int group, int dimension) {
    return Math.min(min[group][dimension], limited[group][dimension]);
  }
}
