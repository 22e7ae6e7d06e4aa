package io.quotaflow.bench.core;

import io.quotaflow.bench.check.SnapshotCheck;
import io.quotaflow.bench.cluster.SyntheticCluster;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.QuotaCalculator;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.TreeSnapshot;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * A full recomputation of one cluster by the quota core: pods to groups, accounting, requests up
 * the tree, runtimes down the tree, and the immutable snapshot of every group and pod.
 */
public class FullRecomputeBenchmark extends CoreBenchmark {

  @Param({"100", "10000", "100000"})
  public int groups;

  private ClusterInputs inputs;

  /** Generates the cluster and checks one result before timing anything. */
  @Setup
  public void setUp() {
    final SyntheticCluster cluster = cluster(groups);
    inputs = cluster.inputs();
    SnapshotCheck.requireSane(QuotaCalculator.compute(inputs, QuotaOptions.DEFAULTS), cluster);
  }

  /** JMH consumes the returned snapshot, so none of the work can be optimised away. */
  @Benchmark
  public TreeSnapshot quotaflow() {
    return QuotaCalculator.compute(inputs, QuotaOptions.DEFAULTS);
  }
}
