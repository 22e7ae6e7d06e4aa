package io.quotaflow.bench.core;

import io.quotaflow.bench.check.SnapshotCheck;
import io.quotaflow.bench.cluster.ClusterShape;
import io.quotaflow.bench.cluster.SyntheticCluster;
import io.quotaflow.bench.cluster.SyntheticClusterGenerator;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.QuotaCalculator;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.TreeSnapshot;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A full recomputation of one cluster by the quota core: pods to groups, accounting, requests up
 * the tree, runtimes down the tree, and the immutable snapshot of every group and pod.
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.AverageTime, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class FullRecomputeBenchmark {

  @Param({"100", "10000", "100000"})
  public int groups;

  private ClusterInputs inputs;

  /** Generates the cluster and checks one result before timing anything. */
  @Setup
  public void setUp() {
    final SyntheticCluster cluster = SyntheticClusterGenerator.generate(ClusterShape.of(groups));
    inputs = cluster.inputs();
    SnapshotCheck.requireSane(QuotaCalculator.compute(inputs, QuotaOptions.DEFAULTS), cluster);
  }

  /** JMH consumes the returned snapshot, so none of the work can be optimised away. */
  @Benchmark
  public TreeSnapshot quotaflow() {
    return QuotaCalculator.compute(inputs, QuotaOptions.DEFAULTS);
  }
}
