package io.quotaflow.tree;

import io.quotaflow.quota.PodRef;
import java.util.ArrayList;
import java.util.List;

/**
 * The pods of one cluster by reference: an open-addressing hash table (linear probing) of the
 * entries themselves, with their references' hashes in a parallel array. A cluster holds hundreds
 * of thousands of pods; a {@code HashMap} spent a node, and a cold start most of its pod time, on
 * each.
 */
final class PodTable {

  private PodEntry[] slots;
  // Probing compares these before touching an entry: reading each probed entry's own hash was a
  // cache miss per probe, a quarter of a 100,000-group cold start.
  private int[] hashes;
  private int size;

  /** A table for about {@code expected} pods before it grows. */
  PodTable(int expected) {
    int capacity = 16;
    while (capacity * 3 < expected * 4) {
      capacity <<= 1;
    }
    slots = new PodEntry[capacity];
    hashes = new int[capacity];
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
      if (hashes[i] == hash && entry.pod.ref().equals(ref)) {
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
    final int mask = slots.length - 1;
    int i = spread(hash) & mask;
    for (; ; i = (i + 1) & mask) {
      final PodEntry held = slots[i];
      if (held == null) {
        break;
      }
      if (hashes[i] == hash && held.pod.ref().equals(ref)) {
        return held;
      }
    }
    slots[i] = entry;
    hashes[i] = hash;
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
      if (hashes[i] == hash && entry.pod.ref().equals(ref)) {
        break;
      }
    }
    final PodEntry removed = slots[i];
    // Backward-shift deletion: move up every later entry of the run that may sit at i.
    int gap = i;
    for (int j = (gap + 1) & mask; slots[j] != null; j = (j + 1) & mask) {
      final int home = spread(hashes[j]) & mask;
      if (((j - home) & mask) >= ((j - gap) & mask)) {
        slots[gap] = slots[j];
        hashes[gap] = hashes[j];
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
    final int[] oldHashes = hashes;
    slots = new PodEntry[capacity];
    hashes = new int[capacity];
    final int mask = capacity - 1;
    for (int j = 0; j < old.length; j++) {
      if (old[j] != null) {
        int i = spread(oldHashes[j]) & mask;
        while (slots[i] != null) {
          i = (i + 1) & mask;
        }
        slots[i] = old[j];
        hashes[i] = oldHashes[j];
      }
    }
  }

  /** Mixes the high bits in, as {@code HashMap} does, so that similar names spread. */
  private static int spread(int hash) {
    final int h = hash * 0x9E3779B9;
    return h ^ (h >>> 16);
  }
}
