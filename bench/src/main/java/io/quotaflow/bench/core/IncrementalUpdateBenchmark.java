package io.quotaflow.bench.core;

import io.quotaflow.bench.cluster.ClusterShape;
import io.quotaflow.bench.cluster.SyntheticCluster;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.QuotaCalculator;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.TreeDelta;
import io.quotaflow.tree.TreeSnapshot;
import java.util.List;
import java.util.SplittableRandom;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * One event and the recomputation that follows it, on a cluster already computed: what the engine
 * does for every pod or node that changes. Invocations alternate between adding something and
 * removing it again, so the cluster stays the same however long the run; each invocation is one
 * event plus {@link ClusterQuotaState#recompute()}.
 *
 * <ul>
 *   <li>{@link #podEvent()}: a new pending pod in a random leaf, then its deletion. This is the
 *       common case, and the incremental target.
 *   <li>{@link #nodeEvent()}: a node leaves, then comes back. The cluster total changes, so the
 *       root redistributes and the change runs down the whole tree: the distribution of every level
 *       without re-reading any pod, which is the closest the core gets to what the YARN peer
 *       computes.
 * </ul>
 */
@BenchmarkMode(Mode.SampleTime)
public class IncrementalUpdateBenchmark extends CoreBenchmark {

  private static final int EVENTS = 1 << 14;

  @Param({"10000", "100000"})
  public int groups;

  private ClusterQuotaState state;
  private QuotaPod[] events;
  private int next;
  private QuotaPod added;
  private QuotaNode node;
  private boolean nodeRemoved;

  /**
   * Builds the state from a generated cluster and proves, before timing anything, that the
   * incremental result after a few events equals a full recomputation of the same inputs.
   */
  @Setup
  public void setUp() {
    final SyntheticCluster cluster = cluster(groups);
    state = liveState(cluster);

    final SplittableRandom random = new SplittableRandom(ClusterShape.DEFAULT_SEED);
    final List<SyntheticCluster.Leaf> leaves = cluster.leaves();
    events = new QuotaPod[EVENTS];
    for (int i = 0; i < EVENTS; i++) {
      events[i] = SyntheticCluster.newPod(leaves.get(random.nextInt(leaves.size())), i, random);
    }

    for (int i = 0; i < 3; i++) {
      state.putPod(events[EVENTS - 1 - i]);
      if (state.recompute().isEmpty()) {
        throw new IllegalStateException("a new pod changed nothing");
      }
    }
    final TreeSnapshot full = QuotaCalculator.compute(state.inputs(), QuotaOptions.DEFAULTS);
    if (!full.equals(state.snapshot())) {
      throw new IllegalStateException("incremental result differs from a full recomputation");
    }
    for (int i = 0; i < 3; i++) {
      state.removePod(events[EVENTS - 1 - i].ref());
    }
    state.recompute();

    node = cluster.inputs().nodes().get(0);
    state.removeNode(node.name());
    final int changed = state.recompute().changedGroups().size();
    if (changed < groups / 4) {
      throw new IllegalStateException("a node leaving changed only " + changed + " groups");
    }
    state.putNode(node);
    state.recompute();
  }

  /** Adds a pod to a random leaf, or removes the one added last time; then recomputes. */
  @Benchmark
  public TreeDelta podEvent() {
    if (added == null) {
      added = events[next];
      next = (next + 1) % (EVENTS - 3);
      state.putPod(added);
    } else {
      state.removePod(added.ref());
      added = null;
    }
    return state.recompute();
  }

  /** Removes the first node, or puts it back; then recomputes. */
  @Benchmark
  public TreeDelta nodeEvent() {
    if (nodeRemoved) {
      state.putNode(node);
    } else {
      state.removeNode(node.name());
    }
    nodeRemoved = !nodeRemoved;
    return state.recompute();
  }
}
