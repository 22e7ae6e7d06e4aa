package io.quotaflow.tree;

import io.quotaflow.quota.QuotaGroup;
import java.util.ArrayList;
import java.util.Arrays;
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
    final Item[] items = new Item[n];
    for (int i = 0; i < n; i++) {
      final PodEntry entry = usedPods.get(i);
      final long[] amounts = new long[dims.length];
      for (int k = 0; k < dims.length; k++) {
        amounts[k] = amountOf(entry, dims[k]);
      }
      items[i] = new Item(entry, amounts);
    }
    if (n > 1) {
      Arrays.sort(items, PodClassifier::compare);
    }
    final QuotaGroup spec = table.spec[g];
    final boolean unlimited = g == GroupTable.SYSTEM;
    final long[] limit = new long[dims.length];
    for (int k = 0; k < dims.length; k++) {
      limit[k] = Math.max(0L, spec.min().get(table.dims.name(dims[k])));
    }
    final long[] running = new long[dims.length];
    boolean within = true;
    for (final Item item : items) {
      if (within && !unlimited) {
        for (int k = 0; k < dims.length; k++) {
          running[k] = Arith.add(running[k], item.amounts[k]);
          if (running[k] > limit[k]) {
            within = false;
          }
        }
      }
      final PodClass podClass = within || unlimited ? PodClass.IN_QUOTA : PodClass.OVER_QUOTA;
      final PodEntry entry = item.entry;
      if (entry.podClass != podClass) {
        entry.podClass = podClass;
        onChange.accept(entry);
      }
    }
  }

  /** A used pod and its amounts in the group's dimensions. */
  private record Item(PodEntry entry, long[] amounts) {}

  /** Oldest first, then smallest (dimension by dimension), then by reference. */
  private static int compare(Item a, Item b) {
    final int byAge = a.entry.pod.creationTime().compareTo(b.entry.pod.creationTime());
    if (byAge != 0) {
      return byAge;
    }
    for (int k = 0; k < a.amounts.length; k++) {
      final int bySize = Long.compare(a.amounts[k], b.amounts[k]);
      if (bySize != 0) {
        return bySize;
      }
    }
    return a.entry.pod.ref().compareTo(b.entry.pod.ref());
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
