package io.quotaflow.rules;

import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.reason.Reason;
import io.quotaflow.tree.GroupRules;
import io.quotaflow.tree.GroupStatus;
import java.util.Optional;

/**
 * Which reason a failed runtime check has, from the limit the bounding runtime sits at
 * (docs/semantics.md section 19): a runtime at the group's max can grow no further ({@link
 * Reason#EXCEEDS_MAX}); one at min plus the borrowing limit, below max, is held there by the limit
 * ({@link Reason#BORROWING_LIMIT}); any other may grow when others lend more ({@link
 * Reason#EXCEEDS_RUNTIME}). An invalid group's runtime is frozen, which is the reason then ({@link
 * Reason#INVALID_GROUP}).
 */
final class RuntimeLimit {

  private RuntimeLimit() {}

  /**
   * @param status the group whose runtime bounded the check
   * @param spec its specification, when known: without it the borrowing limit cannot be told
   * @param runtime the runtime that bounded the check (the what-if runtime for a new pod)
   */
  static Reason reason(
      GroupStatus status, Optional<QuotaGroup> spec, String dimension, long runtime) {
    if (!status.valid()) {
      return Reason.INVALID_GROUP;
    }
    final boolean hasMax = status.max().contains(dimension);
    if (hasMax && runtime >= status.max().get(dimension)) {
      return Reason.EXCEEDS_MAX;
    }
    if (spec.isPresent() && spec.get().borrowingLimit().isPresent()) {
      final boolean limitsDimension = spec.get().borrowingLimit().get().contains(dimension);
      // effectiveMax is min(max, min + borrowing limit): below max it is the borrowing limit's.
      if (limitsDimension && runtime >= GroupRules.effectiveMax(spec.get(), dimension)) {
        return Reason.BORROWING_LIMIT;
      }
    }
    return Reason.EXCEEDS_RUNTIME;
  }
}
