package io.quotaflow.tree;

import io.quotaflow.quota.QuotaGroup;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Over-quota visibility (SPEC 12): a group's used pods, oldest first and then smallest first, are
 * in-quota while their running sum stays within the group's spec.min in every dimension the group
 * reports; the rest are over-quota. The system group is never limited, so its pods are in-quota.
 *
 * <p>One instance per state, reused from group to group: it sorts positions into scratch arrays
 * rather than allocating a record per pod (a cold start classes every pod of the cluster).
 */
final class PodClassifier {

  private PodEntry[] used = new PodEntry[16];
  private long[] seconds = new long[16];
  private int[] nanos = new int[16];
  private long[] amounts = new long[64];
  private int[] order = new int[16];
  private int[] scratch = new int[16];
  private int width;

  void classify(int g, GroupPods pods, int[] dims, GroupTable table, Consumer<PodEntry> onChange) {
    int n = 0;
    for (int i = 0; i < pods.size(); i++) {
      final PodEntry entry = pods.get(i);
      if (entry.countsUsed) {
        if (n == used.length) {
          used = Arrays.copyOf(used, n * 2);
          seconds = Arrays.copyOf(seconds, n * 2);
          nanos = Arrays.copyOf(nanos, n * 2);
        }
        seconds[n] = entry.createdSecond;
        nanos[n] = entry.createdNano;
        used[n++] = entry;
      } else if (entry.podClass != null) {
        entry.podClass = null;
        onChange.accept(entry);
      }
    }
    if (n == 0) {
      return;
    }
    width = dims.length;
    if (amounts.length < n * width) {
      amounts = new long[Math.max(n * width, amounts.length * 2)];
    }
    if (order.length < n) {
      order = new int[Math.max(n, order.length * 2)];
      scratch = new int[order.length];
    }
    for (int i = 0; i < n; i++) {
      order[i] = i;
      for (int k = 0; k < width; k++) {
        amounts[i * width + k] = amountOf(used[i], dims[k]);
      }
    }
    sort(0, n);
    final QuotaGroup spec = table.spec[g];
    final boolean unlimited = g == GroupTable.SYSTEM;
    final long[] limit = new long[width];
    for (int k = 0; k < width; k++) {
      limit[k] = Math.max(0L, spec.min().get(table.dims.name(dims[k])));
    }
    final long[] running = new long[width];
    boolean within = true;
    for (int r = 0; r < n; r++) {
      final int i = order[r];
      if (within && !unlimited) {
        for (int k = 0; k < width; k++) {
          running[k] = Arith.add(running[k], amounts[i * width + k]);
          if (running[k] > limit[k]) {
            within = false;
          }
        }
      }
      final PodClass podClass = within || unlimited ? PodClass.IN_QUOTA : PodClass.OVER_QUOTA;
      final PodEntry entry = used[i];
      if (entry.podClass != podClass) {
        entry.podClass = podClass;
        onChange.accept(entry);
      }
    }
    Arrays.fill(used, 0, n, null);
  }

  /** Sorts {@code order[from, to)}: insertion sort for short runs, else a merge sort. */
  private void sort(int from, int to) {
    if (to - from <= 16) {
      for (int i = from + 1; i < to; i++) {
        final int item = order[i];
        int j = i - 1;
        while (j >= from && compare(order[j], item) > 0) {
          order[j + 1] = order[j];
          j--;
        }
        order[j + 1] = item;
      }
      return;
    }
    final int mid = (from + to) >>> 1;
    sort(from, mid);
    sort(mid, to);
    int left = from;
    int right = mid;
    int out = from;
    while (left < mid && right < to) {
      scratch[out++] = compare(order[left], order[right]) <= 0 ? order[left++] : order[right++];
    }
    while (left < mid) {
      scratch[out++] = order[left++];
    }
    while (right < to) {
      scratch[out++] = order[right++];
    }
    System.arraycopy(scratch, from, order, from, to - from);
  }

  /** Oldest first, then smallest (dimension by dimension), then by reference. */
  private int compare(int a, int b) {
    // As Instant.compareTo, on the creation times read once.
    final int byAge =
        seconds[a] != seconds[b]
            ? Long.compare(seconds[a], seconds[b])
            : Integer.compare(nanos[a], nanos[b]);
    if (byAge != 0) {
      return byAge;
    }
    for (int k = 0; k < width; k++) {
      final int bySize = Long.compare(amounts[a * width + k], amounts[b * width + k]);
      if (bySize != 0) {
        return bySize;
      }
    }
    return used[a].pod.ref().compareTo(used[b].pod.ref());
  }

  private static long amountOf(PodEntry entry, int dimension) {
    for (int i = 0; i < entry.dimensions.length; i++) {
      if (entry.dimensions[i] == dimension) {
        return entry.request.amountAt(i);
      }
    }
    return 0L;
  }
}
