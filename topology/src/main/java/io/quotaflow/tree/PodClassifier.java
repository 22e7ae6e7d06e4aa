package io.quotaflow.tree;

import io.quotaflow.quota.QuotaGroup;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Over-quota visibility (SPEC 12): a group's used pods, oldest first and then smallest first, are
 * in-quota while their running sum stays within the group's spec.min in every dimension the group
 * reports; the rest are over-quota. The system group is never limited, so its pods are in-quota.
 */
final class PodClassifier {

  private PodClassifier() {}

  static void classify(
      int g, Set<PodEntry> pods, int[] dims, GroupTable table, Consumer<PodEntry> onChange) {
    final List<PodEntry> usedPods = new ArrayList<>();
    for (final PodEntry entry : pods) {
      if (entry.countsUsed) {
        usedPods.add(entry);
      } else if (entry.podClass != null) {
        entry.podClass = null;
        onChange.accept(entry);
      }
    }
    if (usedPods.isEmpty()) {
      return;
    }
    final int n = usedPods.size();
    final long[][] amounts = new long[n][dims.length];
    for (int i = 0; i < n; i++) {
      final PodEntry entry = usedPods.get(i);
      for (int k = 0; k < dims.length; k++) {
        amounts[i][k] = amountOf(entry, dims[k]);
      }
    }
    final Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    final Comparator<Integer> byAge = Comparator.comparing(i -> usedPods.get(i).pod.creationTime());
    final Comparator<Integer> bySize =
        (a, b) -> {
          for (int k = 0; k < dims.length; k++) {
            final int c = Long.compare(amounts[a][k], amounts[b][k]);
            if (c != 0) {
              return c;
            }
          }
          return 0;
        };
    java.util.Arrays.sort(
        order, byAge.thenComparing(bySize).thenComparing(i -> usedPods.get(i).pod.ref()));
    final QuotaGroup spec = table.spec[g];
    final boolean unlimited = g == GroupTable.SYSTEM;
    final long[] running = new long[dims.length];
    boolean within = true;
    for (final int i : order) {
      if (within && !unlimited) {
        for (int k = 0; k < dims.length; k++) {
          running[k] = Arith.add(running[k], amounts[i][k]);
          if (running[k] > Math.max(0L, spec.min().get(table.dims.name(dims[k])))) {
            within = false;
          }
        }
      }
      final PodClass podClass = within || unlimited ? PodClass.IN_QUOTA : PodClass.OVER_QUOTA;
      final PodEntry entry = usedPods.get(i);
      if (entry.podClass != podClass) {
        entry.podClass = podClass;
        onChange.accept(entry);
      }
    }
  }

  private static long amountOf(PodEntry entry, int dimension) {
    for (int i = 0; i < entry.dimensions.length; i++) {
      if (entry.dimensions[i] == dimension) {
        return entry.amounts[i];
      }
    }
    return 0L;
  }
}
