package io.quotaflow.bench.core;

import io.quotaflow.bench.check.SnapshotCheck;
import io.quotaflow.bench.cluster.ClusterShape;
import io.quotaflow.bench.cluster.SyntheticCluster;
import io.quotaflow.bench.cluster.SyntheticClusterGenerator;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.QuotaOptions;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The JMH settings every quota core benchmark shares (JMH reads them from the superclass; a
 * benchmark may override one, as {@link IncrementalUpdateBenchmark} does its mode), and the
 * generated clusters they run on.
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.AverageTime, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public abstract class CoreBenchmark {

  /** The generated cluster of {@code groups} groups, the same for every benchmark at that size. */
  static SyntheticCluster cluster(final int groups) {
    return SyntheticClusterGenerator.generate(ClusterShape.of(groups));
  }

  /** A live state that holds every group, pod and node of {@code cluster}, computed and checked. */
  static ClusterQuotaState liveState(final SyntheticCluster cluster) {
    final ClusterQuotaState state = new ClusterQuotaState(QuotaOptions.DEFAULTS);
    cluster.inputs().groups().forEach(state::putGroup);
    cluster.inputs().pods().forEach(state::putPod);
    cluster.inputs().nodes().forEach(state::putNode);
    state.recompute();
    SnapshotCheck.requireSane(state.snapshot(), cluster);
    return state;
  }
}
