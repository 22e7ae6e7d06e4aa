package io.quotaflow.tree;

import io.quotaflow.quota.ResourceList;
import java.util.List;
import java.util.Map;

/**
 * The whole computation of one cluster in one call (SPEC 4 to 12): pod mapping and accounting,
 * request up the tree, runtime down the tree, special and invalid groups, over-quota classes. Pure
 * and deterministic; the result does not depend on the order of the inputs.
 */
public final class QuotaCalculator {

  private QuotaCalculator() {}

  /** Computes from scratch; invalid groups have no earlier runtime to keep, so theirs is empty. */
  public static TreeSnapshot compute(ClusterInputs inputs, QuotaOptions options) {
    return compute(inputs, options, new TreeSnapshot(ResourceList.empty(), List.of(), List.of()));
  }

  /**
   * Computes from scratch, with {@code previous} the last result handed out: an invalid group keeps
   * the runtime it had there (SPEC 9).
   */
  public static TreeSnapshot compute(
      ClusterInputs inputs, QuotaOptions options, TreeSnapshot previous) {
    return ClusterQuotaState.restore(options, inputs, previous).computeOnce();
  }

  /**
   * Computes from scratch with each group's decayed average borrowed (fair share with memory,
   * docs/semantics.md section 24), e.g. the {@link GroupStatus#pastBorrowed} the engine last
   * reported: the splits are weighed as the engine weighs them.
   */
  public static TreeSnapshot compute(
      ClusterInputs inputs,
      QuotaOptions options,
      TreeSnapshot previous,
      Map<String, ResourceList> pastBorrowed) {
    final ClusterQuotaState state = ClusterQuotaState.restore(options, inputs, previous);
    pastBorrowed.forEach(state::putPastUsage);
    return state.computeOnce();
  }
}
