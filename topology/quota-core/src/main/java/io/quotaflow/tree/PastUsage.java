package io.quotaflow.tree;

import io.quotaflow.fairshare.MemoryWeights;
import io.quotaflow.quota.ResourceList;
import java.util.HashMap;
import java.util.Map;

/**
 * Each group's decayed average borrowed (docs/semantics.md section 24), by group name, as the
 * engine last gave it; and the effective weights it makes of one split's weights. Empty, the splits
 * are exactly the plain ones. Kept by name, not slot: it outlives renumbering, and a group deleted
 * and created again under the same name keeps its past.
 */
final class PastUsage {

  private final Map<String, ResourceList> byGroup = new HashMap<>();
  private long[] factor = new long[16];

  boolean isEmpty() {
    return byGroup.isEmpty();
  }

  /** Sets {@code group}'s decayed average borrowed; true if it changed. Zeros are not kept. */
  boolean put(String group, ResourceList borrowed) {
    final ResourceList.Builder kept = ResourceList.builder();
    for (int i = 0; i < borrowed.size(); i++) {
      if (borrowed.amountAt(i) < 0) {
        throw new IllegalArgumentException(
            group + ": a negative past usage of " + borrowed.nameAt(i) + ": " + borrowed);
      }
      if (borrowed.amountAt(i) > 0) {
        kept.put(borrowed.nameAt(i), borrowed.amountAt(i));
      }
    }
    final ResourceList value = kept.build();
    final ResourceList old = value.isEmpty() ? byGroup.remove(group) : byGroup.put(group, value);
    return !value.equals(old == null ? ResourceList.empty() : old);
  }

  /** {@code group}'s decayed average borrowed, empty when none. */
  ResourceList of(String group) {
    return byGroup.getOrDefault(group, ResourceList.empty());
  }

  /**
   * Turns the weights of one split of {@code available} in {@code dimension} into effective
   * weights, in place ({@link MemoryWeights#apply}).
   *
   * @param index each participant's slot
   */
  void weigh(GroupTable t, String dimension, long available, int n, int[] index, long[] weight) {
    if (factor.length < n) {
      factor = new long[Math.max(n, factor.length * 2)];
    }
    for (int i = 0; i < n; i++) {
      final ResourceList past = byGroup.get(t.name[index[i]]);
      factor[i] =
          past == null ? MemoryWeights.ONE : MemoryWeights.factor(available, past.get(dimension));
    }
    MemoryWeights.apply(n, weight, factor);
  }
}
