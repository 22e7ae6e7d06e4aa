package io.quotaflow.bench.core;

import io.quotaflow.bench.check.PeerSharesCheck;
import io.quotaflow.bench.cluster.SyntheticCluster;
import io.quotaflow.bench.peer.YarnFairSharePeer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * The peer: the same trees' shares computed with the YARN Fair Scheduler's {@code
 * ComputeFairShares}, top down, per parent and per dimension (see {@link YarnFairSharePeer} for the
 * mapping). Compare with {@link FullRecomputeBenchmark} at the same size.
 */
public class YarnPeerBenchmark extends CoreBenchmark {

  @Param({"100", "10000", "100000"})
  public int groups;

  private YarnFairSharePeer peer;

  /** Generates the cluster, indexes it for YARN and checks one result before timing anything. */
  @Setup
  public void setUp() {
    final SyntheticCluster cluster = cluster(groups);
    peer = new YarnFairSharePeer(cluster.inputs());
    PeerSharesCheck.requireSane(peer, peer.compute(), cluster);
  }

  /** Demand bottom up, then ComputeFairShares top down; JMH consumes the returned shares. */
  @Benchmark
  public long[][] yarnFairShares() {
    return peer.compute();
  }
}
