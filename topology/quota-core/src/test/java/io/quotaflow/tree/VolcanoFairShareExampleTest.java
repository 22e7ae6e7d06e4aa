package io.quotaflow.tree;

import static io.quotaflow.tree.Expected.runtimeIs;
import static io.quotaflow.tree.Fixtures.cluster;
import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.parentQuota;
import static io.quotaflow.tree.Fixtures.quota;

import io.quotaflow.quota.ResourceList;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SPEC 13: the three tables of Volcano's namespace fair share (16 cpu) under SPEC 12's mapping: a
 * queue is a parent group with its weight as shared-weight, a namespace a leaf with its weight.
 * Nobody has a guarantee (min 0), so everything is shared by weight. Amounts in whole cpus.
 */
class VolcanoFairShareExampleTest {

  private static final String CPU = ResourceList.CPU;

  /** Volcano's three tables, each with the runtimes it gives every queue and namespace. */
  static Stream<TreeCase> volcanoTables() {
    return Stream.of(
        TreeCase.of(
            "default weights share equally and a small namespace leaves its rest to its sibling",
            volcano()
                .queue("q1", 1)
                .queue("q2", 1)
                .namespace("q1", "ns1", 1, 5)
                .namespace("q1", "ns2", 1, 10)
                .namespace("q2", "ns3", 1, 10)
                .namespace("q2", "ns4", 1, 2)
                .cluster,
            runtimeIs("q1", CPU, 8),
            runtimeIs("q2", CPU, 8),
            runtimeIs("ns1", CPU, 4),
            runtimeIs("ns2", CPU, 4),
            runtimeIs("ns3", CPU, 6),
            runtimeIs("ns4", CPU, 2)),
        TreeCase.of(
            "queue and namespace weights split in proportion",
            volcano()
                .queue("q1", 1)
                .queue("q2", 3)
                .namespace("q1", "ns1", 3, 5)
                .namespace("q1", "ns2", 1, 10)
                .namespace("q2", "ns3", 2, 10)
                .namespace("q2", "ns4", 6, 2)
                .cluster,
            runtimeIs("q1", CPU, 4),
            runtimeIs("q2", CPU, 12),
            runtimeIs("ns1", CPU, 3),
            runtimeIs("ns2", CPU, 1),
            runtimeIs("ns3", CPU, 10),
            runtimeIs("ns4", CPU, 2)),
        // Volcano keeps an idle queue's weighted share (here 4 of 16) for it. In quotaflow that is
        // a guarantee the queue does not lend: min 4 with lending off.
        TreeCase.of(
            "an idle queue's share stays reserved when it is a min with lending off",
            volcano()
                .reservedQueue("q1", 4, 1)
                .queue("q2", 3)
                .namespace("q1", "q1-ns1", 2, 0)
                .namespace("q2", "q2-ns1", 2, 5)
                .namespace("q2", "q2-ns2", 6, 20)
                .cluster,
            runtimeIs("q1", CPU, 4),
            runtimeIs("q2", CPU, 12),
            runtimeIs("q1-ns1", CPU, 0),
            runtimeIs("q2-ns1", CPU, 3),
            runtimeIs("q2-ns2", CPU, 9)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("volcanoTables")
  void sharesAsVolcanoDoes(TreeCase table) {
    table.verify();
  }

  private static Volcano volcano() {
    return new Volcano(cluster().total(cpu(16)));
  }

  /** Volcano's vocabulary over the cluster builder: queues and their namespaces. */
  private record Volcano(Fixtures.ClusterBuilder cluster) {

    Volcano queue(String queue, long weight) {
      cluster.group(parentQuota(queue).min(cpu(0)).sharedWeight(cpu(weight)));
      return this;
    }

    /** A queue whose guarantee of {@code min} is kept for it: it does not lend. */
    Volcano reservedQueue(String queue, long min, long weight) {
      cluster.group(parentQuota(queue).min(cpu(min)).allowLent(false).sharedWeight(cpu(weight)));
      return this;
    }

    Volcano namespace(String queue, String namespace, long weight, long request) {
      cluster.group(quota(namespace).parent(queue).min(cpu(0)).sharedWeight(cpu(weight)));
      if (request > 0) {
        cluster.demand(namespace, cpu(request));
      }
      return this;
    }
  }
}
