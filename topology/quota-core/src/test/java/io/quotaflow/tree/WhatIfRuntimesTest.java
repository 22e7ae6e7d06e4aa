package io.quotaflow.tree;

import static io.quotaflow.tree.Fixtures.cluster;
import static io.quotaflow.tree.Fixtures.cpu;
import static io.quotaflow.tree.Fixtures.parentQuota;
import static io.quotaflow.tree.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The what-if runtimes along a group's ancestor path (admission of a new pod, SPEC 10). */
class WhatIfRuntimesTest {

  private static ClusterQuotaState computed(Fixtures.ClusterBuilder builder) {
    return builder.state();
  }

  /** The same inputs without the leaves' own requests, as the engine's stores give them. */
  private static WhatIfInputs withoutOwnRequests(ClusterQuotaState state) {
    final WhatIfInputs full = state.whatIfInputs();
    return new WhatIfInputs() {
      @Override
      public Optional<GroupStatus> status(String name) {
        return full.status(name);
      }

      @Override
      public List<GroupStatus> children(String parent) {
        return full.children(parent);
      }

      @Override
      public Optional<QuotaGroup> spec(String name) {
        return full.spec(name);
      }

      @Override
      public Optional<ResourceList> ownRequest(String group) {
        return Optional.empty();
      }
    };
  }

  @Test
  void aNewPodRaisesTheRuntimesUpThePathAsAFullRecomputationWould() {
    // dept lends and asks 25 of its min 60: it receives exactly that; team gets its 15.
    final ClusterQuotaState state =
        computed(
            cluster()
                .total(cpu(100))
                .group(parentQuota("dept").min(cpu(60)).max(cpu(100)))
                .group(quota("team").parent("dept").min(cpu(20)).max(cpu(50)))
                .group(quota("mate").parent("dept").min(cpu(20)).max(cpu(50)))
                .group(quota("rival").min(cpu(40)).max(cpu(100)))
                .holding("team", cpu(15))
                .holding("mate", cpu(10))
                .demand("rival", cpu(100)));
    assertThat(state.group("team").orElseThrow().runtime()).isEqualTo(cpu(15));

    final Map<String, ResourceList> whatIf = state.whatIfRuntimes("team", cpu(30));

    // team asks 45 (capped at 50), dept 55 (below its min of 60): both get what they ask.
    assertThat(whatIf).containsExactly(Map.entry("team", cpu(45)), Map.entry("dept", cpu(55)));
  }

  @Test
  void theSystemAndDefaultGroupsAndInvalidGroupsKeepTheirRuntimes() {
    final ClusterQuotaState state =
        computed(
            cluster()
                .total(cpu(100))
                .group(quota("broken").min(cpu(50)).max(cpu(10)))
                .holding(SpecialGroups.DEFAULT, cpu(5)));

    for (final String group : List.of(SpecialGroups.DEFAULT, SpecialGroups.SYSTEM, "broken")) {
      assertThat(state.whatIfRuntimes(group, cpu(20)))
          .as(group)
          .containsExactly(Map.entry(group, state.group(group).orElseThrow().runtime()));
    }
  }

  @Test
  void withoutTheOwnRequestTheUsedAmountStandsInAtTheFloor() {
    // A non-lender (floor = min 40) whose request sits at its floor: its own request is not
    // derivable from the status, so used (a lower bound) stands in for it.
    final Fixtures.ClusterBuilder bound =
        cluster()
            .total(cpu(100))
            .group(quota("team").min(cpu(40)).max(cpu(100)).allowLent(false))
            .holding("team", cpu(10));
    final Fixtures.ClusterBuilder pending =
        cluster()
            .total(cpu(100))
            .group(quota("team").min(cpu(40)).max(cpu(100)).allowLent(false))
            .holding("team", cpu(10))
            .demand("team", cpu(20));
    final ClusterQuotaState allBound = computed(bound);
    final ClusterQuotaState somePending = computed(pending);

    // Only bound pods: used is the own request, and the result is exact.
    assertThat(
            WhatIfRuntimes.compute(withoutOwnRequests(allBound), "team", cpu(45), true).get("team"))
        .isEqualTo(allBound.whatIfRuntimes("team", cpu(45)).get("team"))
        .isEqualTo(cpu(55));
    // Pending pods: 10 + 15 stays below the floor, where 30 + 15 would not: never above exact.
    assertThat(
            WhatIfRuntimes.compute(withoutOwnRequests(somePending), "team", cpu(15), true)
                .get("team"))
        .isEqualTo(cpu(40));
    assertThat(somePending.whatIfRuntimes("team", cpu(15)).get("team")).isEqualTo(cpu(45));
  }

  @Test
  void snapshotInputsGiveTheStatesAnswer() {
    final Fixtures.ClusterBuilder builder =
        cluster()
            .total(cpu(100))
            .group(parentQuota("dept").min(cpu(60)).max(cpu(100)))
            .group(quota("team").parent("dept").min(cpu(20)).max(cpu(50)).allowLent(false))
            .group(quota("mate").parent("dept").min(cpu(20)).max(cpu(50)))
            .holding("team", cpu(15))
            .demand("mate", cpu(40));
    final ClusterQuotaState state = computed(builder);
    final Map<String, ResourceList> own = new HashMap<>();
    for (final String group : List.of("dept", "team", "mate")) {
      own.put(group, state.ownRequest(group).orElseThrow());
    }

    assertThat(
            WhatIfRuntimes.compute(
                WhatIfInputs.of(state.snapshot(), builder.inputs().groups(), own),
                "team",
                cpu(25),
                true))
        .isEqualTo(state.whatIfRuntimes("team", cpu(25)));
  }
}
