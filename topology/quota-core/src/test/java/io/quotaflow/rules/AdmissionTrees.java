package io.quotaflow.rules;

import static io.quotaflow.tree.Fixtures.cluster;
import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.parentQuota;
import static io.quotaflow.tree.Fixtures.quota;

import io.quotaflow.tree.Fixtures;

/** The worked trees the admission checks are specified on, shared by their tests. */
final class AdmissionTrees {

  private AdmissionTrees() {}

  /**
   * dept (runtime 65, used 55) holds team (runtime 45, used 40) and sibling, which keeps its min of
   * 20 without lending it and uses 15: the team is the tighter bound. team asks more than its max
   * already.
   */
  static Fixtures.ClusterBuilder teamInDept() {
    return cluster()
        .total(cpu(100))
        .group(parentQuota("dept").min(cpu(50)).max(cpu(100)))
        .group(quota("team").parent("dept").min(cpu(30)).max(cpu(45)))
        .group(quota("sibling").parent("dept").min(cpu(20)).max(cpu(60)).allowLent(false))
        .group(quota("other").min(cpu(0)).max(cpu(100)))
        .holding("team", cpu(40))
        .holding("sibling", cpu(15))
        .demand("team", cpu(10));
  }

  /**
   * dept (min 10, max 20) holds team (min 10) and mate (min 0); mate holds 18 and team asks 10:
   * team has room of its own, dept only 2.
   */
  static Fixtures.ClusterBuilder teamUnderAFullDept() {
    return cluster()
        .total(cpu(100))
        .group(parentQuota("dept").min(cpu(10)).max(cpu(20)))
        .group(quota("team").parent("dept").min(cpu(10)).max(cpu(100)))
        .group(quota("mate").parent("dept").min(cpu(0)).max(cpu(100)))
        .holding("mate", cpu(18))
        .demand("team", cpu(10));
  }

  /**
   * team (min 40) holds 10 and lends the rest of its min to other (min 60), which asks 90: as
   * computed, team's runtime is exactly its request of 10.
   */
  static Fixtures.ClusterBuilder teamLendingToOther() {
    return cluster()
        .total(cpu(100))
        .group(quota("team").min(cpu(40)).max(cpu(100)))
        .group(quota("other").min(cpu(60)).max(cpu(100)))
        .holding("team", cpu(10))
        .demand("other", cpu(90));
  }
}
