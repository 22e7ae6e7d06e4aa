package io.quotaflow.bench.core;

import io.quotaflow.bench.cluster.SyntheticCluster;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.QuotaCalculator;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.TreeDelta;
import io.quotaflow.tree.TreeSnapshot;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * The full recomputation of the runtimes on live state: {@link ClusterQuotaState#recomputeAll()} on
 * a state that already holds every group, pod and node, so every group's request, limited request
 * and sums are rebuilt from its own pod charges and its children, and every parent splits its
 * runtime again, in every dimension. This is the figure the full-recomputation targets are about;
 * converting a {@code ClusterInputs} into a state (the cold start) is measured separately by {@link
 * FullRecomputeBenchmark}.
 */
public class RuntimeRecomputeBenchmark extends CoreBenchmark {

  @Param({"100", "10000", "100000"})
  public int groups;

  private ClusterQuotaState state;

  /**
   * Builds the state, checks its result, and proves that a whole-tree recomputation changes nothing
   * and leaves the result equal to a full computation from the inputs.
   */
  @Setup
  public void setUp() {
    final SyntheticCluster cluster = cluster(groups);
    state = liveState(cluster);
    if (!state.recomputeAll().isEmpty()) {
      throw new IllegalStateException("recomputing an up-to-date state changed something");
    }
    final TreeSnapshot full = QuotaCalculator.compute(cluster.inputs(), QuotaOptions.DEFAULTS);
    if (!full.equals(state.snapshot())) {
      throw new IllegalStateException("live result differs from a full computation");
    }
  }

  /** Every aggregate and every runtime, from the maintained per-group pod charges. */
  @Benchmark
  public TreeDelta recomputeAll() {
    return state.recomputeAll();
  }
}
