package io.quotaflow.admission.people.whatif;

import io.quotaflow.profile.MultiTreeCalculator;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaCalculator;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.TreeSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A what-if: the whole computation {@code simulate} runs ({@link QuotaCalculator}), once on a copy
 * of a cluster's inputs and once on that copy with the edits, so the difference is the edits' alone
 * (not a change that arrived since the last recomputation). Invalid groups keep the runtime the
 * live state holds for them in both (SPEC 9). Pure: nothing is written anywhere.
 */
public final class WhatIf {

  /**
   * One group whose runtime or validity the edits would change.
   *
   * @param before its status computed from the inputs as they are
   * @param after its status computed with the edits
   */
  public record Change(GroupStatus before, GroupStatus after) {
    /** Requires both statuses. */
    public Change {
      Objects.requireNonNull(before, "before");
      Objects.requireNonNull(after, "after");
    }
  }

  /**
   * The outcome of a what-if.
   *
   * @param changed every group whose runtime or validity would change, in tree order
   * @param groups how many groups were computed
   */
  public record Result(List<Change> changed, int groups) {
    /** Copies the list. */
    public Result {
      changed = List.copyOf(changed);
    }
  }

  private WhatIf() {}

  /**
   * What {@code request} would change.
   *
   * @param inputs a copy of the cluster's inputs
   * @param live the cluster's current statuses (the runtimes invalid groups keep)
   * @param options the options the engine computes with
   * @throws WhatIfException when the request names something the inputs do not have, or a bad value
   */
  public static Result compute(
      ClusterInputs inputs, List<GroupStatus> live, QuotaOptions options, WhatIfRequest request)
      throws WhatIfException {
    return compute(inputs, List.of(), live, options, request);
  }

  /**
   * The runtimes the edits change in a cluster with ElasticQuotaProfiles: each quota tree computed
   * on its own, as the engine computes it (docs/semantics.md section 15). Invalid groups are
   * computed, not kept at their live runtimes, in both computations alike.
   *
   * @param profiles the cluster's profiles; none: {@link #compute(ClusterInputs, List,
   *     QuotaOptions, WhatIfRequest)}
   * @throws WhatIfException when the request names something the inputs do not have, or a bad value
   */
  public static Result compute(
      ClusterInputs inputs,
      List<QuotaProfile> profiles,
      List<GroupStatus> live,
      QuotaOptions options,
      WhatIfRequest request)
      throws WhatIfException {
    final ClusterInputs edited = WhatIfEdits.apply(inputs, request);
    final List<GroupStatus> before;
    final List<GroupStatus> after;
    if (profiles.isEmpty()) {
      final TreeSnapshot previous = new TreeSnapshot(rootRuntime(live), live, List.of());
      // Fair share with memory (docs/semantics.md section 24): weighed as the engine weighed them.
      final Map<String, ResourceList> past = new HashMap<>();
      live.forEach(
          status -> {
            if (!status.pastBorrowed().isEmpty()) {
              past.put(status.name(), status.pastBorrowed());
            }
          });
      before = QuotaCalculator.compute(inputs, options, previous, past).groups();
      after = QuotaCalculator.compute(edited, options, previous, past).groups();
    } else {
      before = everyTree(MultiTreeCalculator.compute(inputs, profiles, options));
      after = everyTree(MultiTreeCalculator.compute(edited, profiles, options));
    }
    final Map<String, GroupStatus> afterByName = new HashMap<>();
    after.forEach(status -> afterByName.put(status.name(), status));
    final List<Change> changed = new ArrayList<>();
    for (final GroupStatus old : before) {
      final GroupStatus now = afterByName.get(old.name());
      if (now != null
          && (!old.runtime().equals(now.runtime())
              || old.valid() != now.valid()
              || !old.reason().equals(now.reason()))) {
        changed.add(new Change(old, now));
      }
    }
    return new Result(changed, after.size());
  }

  private static List<GroupStatus> everyTree(List<MultiTreeCalculator.TreeResult> trees) {
    final List<GroupStatus> groups = new ArrayList<>();
    trees.forEach(tree -> groups.addAll(tree.snapshot().groups()));
    return groups;
  }

  private static ResourceList rootRuntime(List<GroupStatus> live) {
    return live.stream()
        .filter(status -> SpecialGroups.ROOT.equals(status.name()))
        .map(GroupStatus::runtime)
        .findFirst()
        .orElse(ResourceList.empty());
  }
}
