package io.quotaflow.tree;

import io.quotaflow.quota.PodRef;
import java.util.ArrayList;
import java.util.List;

/**
 * The pods of one cluster by reference: an open-addressing hash table (linear probing) of the
 * entries themselves, each keeping its reference's hash. A cluster holds hundreds of thousands of
 * pods; a {@code HashMap} spent a node, and a cold start most of its pod time, on each.
 */
final class PodTable {

  private PodEntry[] slots;
  private int size;

  /** A table for about {@code expected} pods before it grows. */
  PodTable(int expected) {
    int capacity = 16;
    while (capacity * 3 < expected * 4) {
      capacity <<= 1;
    }
    slots = new PodEntry[capacity];
  }

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  /** The entry of {@code ref}, or null. */
  PodEntry get(PodRef ref) {
    final int hash = ref.hashCode();
    final int mask = slots.length - 1;
    for (int i = spread(hash) & mask; ; i = (i + 1) & mask) {
      final PodEntry entry = slots[i];
      if (entry == null) {
        return null;
      }
      if (entry.hash == hash && entry.pod.ref().equals(ref)) {
        return entry;
      }
    }
  }

  /**
   * Adds {@code entry} under its pod's reference unless an entry is held for it; returns the one
   * held (null when {@code entry} was added).
   */
  PodEntry putIfAbsent(PodEntry entry) {
    final PodRef ref = entry.pod.ref();
    final int hash = ref.hashCode();
    entry.hash = hash;
    final int mask = slots.length - 1;
    int i = spread(hash) & mask;
    for (; ; i = (i + 1) & mask) {
      final PodEntry held = slots[i];
      if (held == null) {
        break;
      }
      if (held.hash == hash && held.pod.ref().equals(ref)) {
        return held;
      }
    }
    slots[i] = entry;
    if (++size * 4 > slots.length * 3) {
      resize(slots.length * 2);
    }
    return null;
  }

  /** Removes and returns the entry of {@code ref}, or null. */
  PodEntry remove(PodRef ref) {
    final int hash = ref.hashCode();
    final int mask = slots.length - 1;
    int i = spread(hash) & mask;
    for (; ; i = (i + 1) & mask) {
      final PodEntry entry = slots[i];
      if (entry == null) {
        return null;
      }
      if (entry.hash == hash && entry.pod.ref().equals(ref)) {
        break;
      }
    }
    final PodEntry removed = slots[i];
    // Backward-shift deletion: move up every later entry of the run that may sit at i.
    int gap = i;
    for (int j = (gap + 1) & mask; slots[j] != null; j = (j + 1) & mask) {
      final int home = spread(slots[j].hash) & mask;
      if (((j - home) & mask) >= ((j - gap) & mask)) {
        slots[gap] = slots[j];
        gap = j;
      }
    }
    slots[gap] = null;
    size--;
    return removed;
  }

  /** Every entry, in table order (no meaningful order). */
  List<PodEntry> values() {
    final List<PodEntry> values = new ArrayList<>(size);
    for (final PodEntry entry : slots) {
      if (entry != null) {
        values.add(entry);
      }
    }
    return values;
  }

  private void resize(int capacity) {
    final PodEntry[] old = slots;
    slots = new PodEntry[capacity];
    final int mask = capacity - 1;
    for (final PodEntry entry : old) {
      if (entry != null) {
        int i = spread(entry.hash) & mask;
        while (slots[i] != null) {
          i = (i + 1) & mask;
        }
        slots[i] = entry;
      }
    }
  }

  /** Mixes the high bits in, as {@code HashMap} does, so that similar names spread. */
  private static int spread(int hash) {
    final int h = hash * 0x9E3779B9;
    return h ^ (h >>> 16);
  }
}
