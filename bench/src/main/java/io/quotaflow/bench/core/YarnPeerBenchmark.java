package io.quotaflow.bench.core;

import io.quotaflow.bench.check.PeerSharesCheck;
import io.quotaflow.bench.cluster.ClusterShape;
import io.quotaflow.bench.cluster.SyntheticCluster;
import io.quotaflow.bench.cluster.SyntheticClusterGenerator;
import io.quotaflow.bench.peer.YarnFairSharePeer;
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
 * The peer: the same trees' shares computed with the YARN Fair Scheduler's {@code
 * ComputeFairShares}, top down, per parent and per dimension (see {@link YarnFairSharePeer} for the
 * mapping). Compare with {@link FullRecomputeBenchmark} at the same size.
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.AverageTime, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class YarnPeerBenchmark {

  @Param({"100", "10000", "100000"})
  public int groups;

  private YarnFairSharePeer peer;

  /** Generates the cluster, indexes it for YARN and checks one result before timing anything. */
  @Setup
  public void setUp() {
    final SyntheticCluster cluster = SyntheticClusterGenerator.generate(ClusterShape.of(groups));
    peer = new YarnFairSharePeer(cluster.inputs());
    PeerSharesCheck.requireSane(peer, peer.compute(), cluster);
  }

  /** Demand bottom up, then ComputeFairShares top down; JMH consumes the returned shares. */
  @Benchmark
  public long[][] yarnFairShares() {
    return peer.compute();
  }
}
