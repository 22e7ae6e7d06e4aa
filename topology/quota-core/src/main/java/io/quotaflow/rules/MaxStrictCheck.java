package io.quotaflow.rules;

import io.quotaflow.kube.QuotaLabels;
import io.quotaflow.quota.Quantities;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.rules.Violation.Rule;
import java.util.List;
import java.util.Map;

/**
 * Koordinator's {@code max-strict-check-resource-keys} (docs/semantics.md section 16): for every
 * listed resource the group uses, a max below what it uses is rejected. A key the group does not
 * use, or whose max is absent (unbounded in quotaflow), passes.
 */
final class MaxStrictCheck {

  private static final String FIELD = "spec.max";

  private MaxStrictCheck() {}

  static void check(QuotaGroup group, Map<String, ResourceList> used, List<Violation> violations) {
    final ResourceList groupUsed = used.get(group.name());
    if (groupUsed == null) {
      return;
    }
    for (final String key : group.maxStrictCheckKeys()) {
      if (!groupUsed.contains(key) || !group.max().contains(key)) {
        continue;
      }
      final long max = group.max().get(key);
      final long inUse = groupUsed.get(key);
      if (max < inUse) {
        violations.add(
            new Violation(
                Rule.MAX_NOT_BELOW_USED,
                group.name(),
                FIELD + "[" + key + "]",
                "max "
                    + Quantities.format(key, max)
                    + " is below used "
                    + Quantities.format(key, inUse)
                    + " in "
                    + key
                    + ", which "
                    + QuotaLabels.MAX_STRICT_CHECK_RESOURCE_KEYS
                    + " lists"));
      }
    }
  }
}
