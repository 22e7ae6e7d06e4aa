package io.quotaflow.admission.people.whatif;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaCalculator;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.TreeSnapshot;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The web view's what-if weighs the splits with the past usage the engine reported, as the engine
 * does (fair share with memory, docs/semantics.md section 24).
 */
class WhatIfPastUsageTest {

  private static final String GPU = "nvidia.com/gpu";

  @Test
  void theWhatIfStartsFromTheRememberedSplitNotAnEvenOne() throws WhatIfException {
    final ClusterInputs inputs =
        new ClusterInputs(
            List.of(team("team-a"), team("team-b"), team("team-c")),
            List.of(pending("team-a"), pending("team-b")),
            List.of(QuotaNode.healthy("n1", ResourceList.of(GPU, 14))));
    final TreeSnapshot none = new TreeSnapshot(ResourceList.empty(), List.of(), List.of());
    // What the engine reported: team-a remembered as borrowing 4 GPUs on average.
    final List<GroupStatus> live =
        QuotaCalculator.compute(
                inputs, QuotaOptions.DEFAULTS, none, Map.of("team-a", ResourceList.of(GPU, 4)))
            .groups();
    // Factors floor(65536 x 14 / 18) = 50,972 and 65,536: 10 GPUs above the mins split 4 3/8 and
    // 5 5/8, the leftover unit to team-b: 6 and 8 (7 and 7 without memory).
    assertThat(runtime(live, "team-a")).isEqualTo(6);
    assertThat(runtime(live, "team-b")).isEqualTo(8);

    // team-c, idle, asks for its min of 2: the 8 GPUs left split 3 1/2 and 4 1/2, the leftover unit
    // to team-b's remainder (699,072 against 699,024): 5 and 7, where without memory 6 and 6.
    final WhatIf.Result result =
        WhatIf.compute(
            inputs,
            live,
            QuotaOptions.DEFAULTS,
            new WhatIfRequest(
                null, List.of(new WhatIfRequest.AddedPods("team-c", Map.of(GPU, "2"), 1))));

    final Map<String, WhatIf.Change> changes =
        result.changed().stream()
            .collect(java.util.stream.Collectors.toMap(change -> change.after().name(), c -> c));
    assertThat(changes.get("team-a").before().runtime().get(GPU)).isEqualTo(6);
    assertThat(changes.get("team-a").after().runtime().get(GPU)).isEqualTo(5);
    assertThat(changes.get("team-b").before().runtime().get(GPU)).isEqualTo(8);
    assertThat(changes.get("team-b").after().runtime().get(GPU)).isEqualTo(7);
    assertThat(changes.get("team-c").after().runtime().get(GPU)).isEqualTo(2);
  }

  private static QuotaGroup team(String name) {
    return QuotaGroup.builder(name)
        .min(ResourceList.of(GPU, 2))
        .max(ResourceList.of(GPU, 12))
        .build();
  }

  private static QuotaPod pending(String group) {
    return QuotaPod.builder(group, group + "-job")
        .quotaName(group)
        .request(ResourceList.of(GPU, 12))
        .build();
  }

  private static long runtime(List<GroupStatus> groups, String name) {
    return groups.stream()
        .filter(g -> g.name().equals(name))
        .findFirst()
        .orElseThrow()
        .runtime()
        .get(GPU);
  }
}
