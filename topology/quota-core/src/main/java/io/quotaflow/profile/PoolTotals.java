package io.quotaflow.profile;

import io.quotaflow.quota.ResourceList;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The running totals of one tree's node pool, kept node event by node event so that a node change
 * does not sum every node of the cluster again: how many nodes the profile's selector matches, and
 * the allocatable of the counted ones per dimension (with how many nodes name each dimension, so a
 * dimension leaves the total with its last node). Exact: once a sum leaves the range of a long, the
 * totals say so and the tree's total is summed in full (which saturates).
 */
final class PoolTotals {

  private int matching;
  // dimension -> {sum, nodes naming it}
  private final Map<String, long[]> sums = new TreeMap<>();
  private boolean overflowed;

  void match(int sign) {
    matching += sign;
  }

  boolean matchesAnyNode() {
    return matching > 0;
  }

  /** Adds ({@code sign} 1) or takes away (-1) one counted node's allocatable. */
  void count(ResourceList allocatable, int sign) {
    for (int i = 0; i < allocatable.size(); i++) {
      final long[] entry = sums.computeIfAbsent(allocatable.nameAt(i), d -> new long[2]);
      try {
        entry[0] = Math.addExact(entry[0], sign * allocatable.amountAt(i));
      } catch (ArithmeticException e) {
        overflowed = true;
      }
      entry[1] += sign;
      if (entry[1] == 0) {
        sums.remove(allocatable.nameAt(i));
      }
    }
  }

  /** The counted nodes' allocatable per dimension; empty once a sum overflowed. */
  Optional<Map<String, Long>> sums() {
    if (overflowed) {
      return Optional.empty();
    }
    final Map<String, Long> result = new TreeMap<>();
    sums.forEach((dimension, entry) -> result.put(dimension, entry[0]));
    return Optional.of(result);
  }
}
