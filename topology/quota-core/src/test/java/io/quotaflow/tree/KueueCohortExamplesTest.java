package io.quotaflow.tree;

import static io.quotaflow.tree.Fixtures.cluster;
import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.parentQuota;
import static io.quotaflow.tree.Fixtures.quota;
import static io.quotaflow.tree.Fixtures.runtime;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.ResourceList;
import org.junit.jupiter.api.Test;

/** SPEC 13: Kueue's hierarchical cohort user stories, through borrowing limits (SPEC 12). */
class KueueCohortExamplesTest {

  private static final String CPU = ResourceList.CPU;

  /** Story 1: production and research each have 50; research may not borrow (limit 0). */
  private static Fixtures.ClusterBuilder organisations() {
    return cluster()
        .total(cpu(100))
        .group(parentQuota("production").min(cpu(50)).max(cpu(100)))
        .group(parentQuota("research").min(cpu(50)).max(cpu(100)).borrowingLimit(cpu(0)))
        .group(quota("prod-serving").parent("production").min(cpu(25)).max(cpu(100)))
        .group(quota("prod-batch").parent("production").min(cpu(25)).max(cpu(100)))
        .group(quota("research-a").parent("research").min(cpu(25)).max(cpu(100)))
        .group(quota("research-b").parent("research").min(cpu(25)).max(cpu(100)));
  }

  @Test
  void productionBorrowsIdleResearchQuota() {
    final TreeSnapshot snapshot =
        organisations()
            .demand("prod-serving", cpu(60))
            .demand("prod-batch", cpu(40))
            .computeExplained();

    assertThat(runtime(snapshot, "production", CPU)).isEqualTo(100);
    assertThat(runtime(snapshot, "prod-serving", CPU)).isEqualTo(60);
    assertThat(runtime(snapshot, "prod-batch", CPU)).isEqualTo(40);
    assertThat(runtime(snapshot, "research", CPU)).isZero();
  }

  @Test
  void researchMayNotBorrowIdleProductionQuota() {
    final TreeSnapshot snapshot =
        organisations()
            .demand("research-a", cpu(60))
            .demand("research-b", cpu(40))
            .computeExplained();

    assertThat(runtime(snapshot, "research", CPU)).isEqualTo(50);
    assertThat(runtime(snapshot, "research-a", CPU) + runtime(snapshot, "research-b", CPU))
        .isEqualTo(50);
    assertThat(runtime(snapshot, "production", CPU)).isZero();
  }

  /** Story 2: organisations that never borrow, and a special queue that borrows from all. */
  private static Fixtures.ClusterBuilder organisationsAndSpecialQueue() {
    return cluster()
        .total(cpu(100))
        .group(quota("org-a").min(cpu(40)).max(cpu(100)).borrowingLimit(cpu(0)))
        .group(quota("org-b").min(cpu(60)).max(cpu(100)).borrowingLimit(cpu(0)))
        .group(quota("special").min(cpu(0)).sharedWeight(cpu(1)));
  }

  @Test
  void theSpecialQueueBorrowsWhatTheOrganisationsLeaveIdleAndTheyNeverBorrowFromEachOther() {
    final TreeSnapshot snapshot =
        organisationsAndSpecialQueue()
            .demand("org-b", cpu(100))
            .demand("special", cpu(100))
            .computeExplained();

    assertThat(runtime(snapshot, "org-a", CPU)).isZero();
    assertThat(runtime(snapshot, "org-b", CPU)).isEqualTo(60);
    assertThat(runtime(snapshot, "special", CPU)).isEqualTo(40);
  }

  @Test
  void anOrganisationTakesItsQuotaBackFromTheSpecialQueue() {
    final TreeSnapshot snapshot =
        organisationsAndSpecialQueue()
            .demand("org-a", cpu(40))
            .demand("org-b", cpu(100))
            .demand("special", cpu(100))
            .computeExplained();

    assertThat(runtime(snapshot, "org-a", CPU)).isEqualTo(40);
    assertThat(runtime(snapshot, "org-b", CPU)).isEqualTo(60);
    assertThat(runtime(snapshot, "special", CPU)).isZero();
  }
}
