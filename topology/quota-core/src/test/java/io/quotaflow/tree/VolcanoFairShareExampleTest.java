package io.quotaflow.tree;

import static io.quotaflow.tree.Fixtures.cluster;
import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.parentQuota;
import static io.quotaflow.tree.Fixtures.quota;
import static io.quotaflow.tree.Fixtures.runtime;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.ResourceList;
import org.junit.jupiter.api.Test;

/**
 * SPEC 13: the three tables of Volcano's namespace fair share (16 cpu) under SPEC 12's mapping: a
 * queue is a parent group with its weight as shared-weight, a namespace a leaf with its weight.
 * Nobody has a guarantee (min 0), so everything is shared by weight. Amounts in whole cpus.
 */
class VolcanoFairShareExampleTest {

  private static final String CPU = ResourceList.CPU;

  private static Fixtures.ClusterBuilder queue(
      Fixtures.ClusterBuilder cluster, String queue, long weight) {
    return cluster.group(parentQuota(queue).min(cpu(0)).sharedWeight(cpu(weight)));
  }

  private static Fixtures.ClusterBuilder namespace(
      Fixtures.ClusterBuilder cluster, String queue, String namespace, long weight, long request) {
    cluster.group(quota(namespace).parent(queue).min(cpu(0)).sharedWeight(cpu(weight)));
    return request > 0 ? cluster.demand(namespace, cpu(request)) : cluster;
  }

  @Test
  void defaultWeightsShareEquallyAndASmallNamespaceLeavesItsRestToItsSibling() {
    final Fixtures.ClusterBuilder cluster = cluster().total(cpu(16));
    queue(cluster, "q1", 1);
    queue(cluster, "q2", 1);
    namespace(cluster, "q1", "ns1", 1, 5);
    namespace(cluster, "q1", "ns2", 1, 10);
    namespace(cluster, "q2", "ns3", 1, 10);
    namespace(cluster, "q2", "ns4", 1, 2);

    final TreeSnapshot snapshot = cluster.compute();

    assertThat(runtime(snapshot, "q1", CPU)).isEqualTo(8);
    assertThat(runtime(snapshot, "q2", CPU)).isEqualTo(8);
    assertThat(runtime(snapshot, "ns1", CPU)).isEqualTo(4);
    assertThat(runtime(snapshot, "ns2", CPU)).isEqualTo(4);
    assertThat(runtime(snapshot, "ns3", CPU)).isEqualTo(6);
    assertThat(runtime(snapshot, "ns4", CPU)).isEqualTo(2);
  }

  @Test
  void queueAndNamespaceWeightsSplitInProportion() {
    final Fixtures.ClusterBuilder cluster = cluster().total(cpu(16));
    queue(cluster, "q1", 1);
    queue(cluster, "q2", 3);
    namespace(cluster, "q1", "ns1", 3, 5);
    namespace(cluster, "q1", "ns2", 1, 10);
    namespace(cluster, "q2", "ns3", 2, 10);
    namespace(cluster, "q2", "ns4", 6, 2);

    final TreeSnapshot snapshot = cluster.compute();

    assertThat(runtime(snapshot, "q1", CPU)).isEqualTo(4);
    assertThat(runtime(snapshot, "q2", CPU)).isEqualTo(12);
    assertThat(runtime(snapshot, "ns1", CPU)).isEqualTo(3);
    assertThat(runtime(snapshot, "ns2", CPU)).isEqualTo(1);
    assertThat(runtime(snapshot, "ns3", CPU)).isEqualTo(10);
    assertThat(runtime(snapshot, "ns4", CPU)).isEqualTo(2);
  }

  /**
   * Volcano keeps an idle queue's weighted share (here 4 of 16) for it. In quotaflow that is a
   * guarantee the queue does not lend: min 4 with lending off.
   */
  @Test
  void anIdleQueuesShareStaysReservedWhenItIsAMinWithLendingOff() {
    final Fixtures.ClusterBuilder cluster = cluster().total(cpu(16));
    cluster.group(parentQuota("q1").min(cpu(4)).allowLent(false).sharedWeight(cpu(1)));
    queue(cluster, "q2", 3);
    namespace(cluster, "q1", "q1-ns1", 2, 0);
    namespace(cluster, "q2", "q2-ns1", 2, 5);
    namespace(cluster, "q2", "q2-ns2", 6, 20);

    final TreeSnapshot snapshot = cluster.compute();

    assertThat(runtime(snapshot, "q1", CPU)).isEqualTo(4);
    assertThat(runtime(snapshot, "q2", CPU)).isEqualTo(12);
    assertThat(runtime(snapshot, "q1-ns1", CPU)).isZero();
    assertThat(runtime(snapshot, "q2-ns1", CPU)).isEqualTo(3);
    assertThat(runtime(snapshot, "q2-ns2", CPU)).isEqualTo(9);
  }
}
