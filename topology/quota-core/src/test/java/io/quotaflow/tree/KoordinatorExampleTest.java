package io.quotaflow.tree;

import static io.quotaflow.tree.Fixtures.cluster;
import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.quota;
import static io.quotaflow.tree.Fixtures.runtime;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.ResourceList;
import org.junit.jupiter.api.Test;

/** SPEC 13: the worked example of Koordinator's multi-hierarchy elastic quota proposal. */
class KoordinatorExampleTest {

  @Test
  void lenderKeepsItsRequestAndBorrowersShareTheRestByWeightInRounds() {
    final TreeSnapshot snapshot =
        cluster()
            .total(cpu(100))
            .group(quota("a").min(cpu(10)).max(cpu(100)).sharedWeight(cpu(10)))
            .group(quota("b").min(cpu(15)).max(cpu(100)).sharedWeight(cpu(60)))
            .group(quota("c").min(cpu(20)).max(cpu(100)).sharedWeight(cpu(50)))
            .group(quota("d").min(cpu(15)).max(cpu(100)).sharedWeight(cpu(80)))
            .demand("a", cpu(5))
            .demand("b", cpu(20))
            .demand("c", cpu(40))
            .demand("d", cpu(70))
            .computeExplained();

    assertThat(runtime(snapshot, "a", ResourceList.CPU)).isEqualTo(5);
    assertThat(runtime(snapshot, "b", ResourceList.CPU)).isEqualTo(20);
    assertThat(runtime(snapshot, "c", ResourceList.CPU)).isEqualTo(35);
    assertThat(runtime(snapshot, "d", ResourceList.CPU)).isEqualTo(40);
  }
}
