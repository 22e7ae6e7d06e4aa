package io.quotaflow.bench.peer;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.bench.check.PeerSharesCheck;
import io.quotaflow.bench.cluster.ClusterShape;
import io.quotaflow.bench.cluster.Dimensions;
import io.quotaflow.bench.cluster.SyntheticCluster;
import io.quotaflow.bench.cluster.SyntheticClusterGenerator;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.ClusterInputs;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class YarnFairSharePeerTest {

  private static final int CPU = 0;

  private final List<QuotaGroup> groups = new ArrayList<>();
  private final List<QuotaPod> pods = new ArrayList<>();

  @Test
  void splitsTheProposalExampleInProportionToWeightBetweenMinAndRequest() {
    leaf("a", 10, 5, 10);
    leaf("b", 15, 20, 60);
    leaf("c", 20, 40, 50);
    leaf("d", 15, 70, 80);
    final YarnFairSharePeer peer = peer(100);

    final long[][] shares = peer.compute();

    // YARN gives each borrower weight x R clamped to [min, request] (c: 50R, d: 80R, R ~ 0.577),
    // where quotaflow gives min plus a weighted part of the surplus (c 35, d 40).
    assertThat(shares[index(peer, "a")][CPU]).isEqualTo(5);
    assertThat(shares[index(peer, "b")][CPU]).isEqualTo(20);
    assertThat(shares[index(peer, "c")][CPU]).isEqualTo(29);
    assertThat(shares[index(peer, "d")][CPU]).isEqualTo(46);
  }

  @Test
  void nonLenderKeepsItsMinWithoutPodsAndLenderGetsItsRequest() {
    groups.add(group("idle", 30, 10).allowLent(false).build());
    leaf("lender", 30, 12, 10);
    leaf("borrower", 10, 100, 10);
    final YarnFairSharePeer peer = peer(100);

    final long[][] shares = peer.compute();

    assertThat(shares[index(peer, "idle")][CPU]).isEqualTo(30);
    assertThat(shares[index(peer, "lender")][CPU]).isEqualTo(12);
    assertThat(shares[index(peer, "borrower")][CPU]).isBetween(57L, 58L);
  }

  @Test
  void generatedClusterPassesTheSanityCheckWithinYarnsRounding() {
    final SyntheticCluster cluster = SyntheticClusterGenerator.generate(ClusterShape.of(2_000));
    final YarnFairSharePeer peer = new YarnFairSharePeer(cluster.inputs());

    final long[][] shares = peer.compute();

    assertThat(PeerSharesCheck.violations(peer, shares, cluster)).isEmpty();
    for (int group = 1; group < peer.names().size(); group++) {
      for (int d = 0; d < Dimensions.ALL.size(); d++) {
        assertThat(shares[group][d]).isLessThanOrEqualTo(peer.limitedRequest(group, d));
      }
    }
  }

  @Test
  void theSanityCheckCatchesAParentThatHandsOutMoreThanItHolds() {
    final SyntheticCluster cluster = SyntheticClusterGenerator.generate(ClusterShape.of(200));
    final YarnFairSharePeer peer = new YarnFairSharePeer(cluster.inputs());
    final long[][] shares = peer.compute();

    shares[peer.names().size() - 1][CPU] += 1_000_000;

    assertThat(PeerSharesCheck.violations(peer, shares, cluster))
        .anySatisfy(violation -> assertThat(violation).contains("hands out"));
  }

  private void leaf(String name, long min, long request, long weight) {
    groups.add(group(name, min, weight).build());
    pods.add(
        QuotaPod.builder("ns", name + "-pod")
            .quotaName(name)
            .request(ResourceList.of(Dimensions.CPU, request))
            .build());
  }

  private static QuotaGroup.Builder group(String name, long min, long weight) {
    return QuotaGroup.builder(name)
        .min(ResourceList.of(Dimensions.CPU, min))
        .max(ResourceList.of(Dimensions.CPU, 100))
        .sharedWeight(ResourceList.of(Dimensions.CPU, weight));
  }

  private YarnFairSharePeer peer(long totalCpu) {
    return new YarnFairSharePeer(
        new ClusterInputs(
            groups,
            pods,
            List.of(QuotaNode.healthy("node", ResourceList.of(Dimensions.CPU, totalCpu)))));
  }

  private static int index(YarnFairSharePeer peer, String name) {
    return peer.names().indexOf(name);
  }
}
