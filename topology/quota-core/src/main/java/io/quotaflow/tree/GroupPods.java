package io.quotaflow.tree;

import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The pods charged to one group, in no particular order: an array with each entry's position kept
 * in the entry, so adding and removing are constant time without hashing. A group holds a handful
 * of pods, and a cluster tens of thousands of groups: a hash set per group cost more to build than
 * everything else a cold start does with a pod.
 */
final class GroupPods implements Iterable<PodEntry> {

  private static final PodEntry[] NONE = new PodEntry[0];

  private PodEntry[] entries = NONE;
  private int size;

  /** Adds an entry that is in no group's list. */
  void add(PodEntry entry) {
    if (size == entries.length) {
      entries = Arrays.copyOf(entries, Math.max(4, size * 2));
    }
    entry.position = size;
    entries[size++] = entry;
  }

  /** Removes an entry of this list (the last one takes its place). */
  void remove(PodEntry entry) {
    final int at = entry.position;
    if (at >= size || entries[at] != entry) {
      throw new IllegalStateException("pod " + entry.pod.ref() + " is not in this group's list");
    }
    final PodEntry last = entries[--size];
    entries[at] = last;
    last.position = at;
    entries[size] = null;
    entry.position = -1;
  }

  int size() {
    return size;
  }

  PodEntry get(int i) {
    return entries[i];
  }

  @Override
  public Iterator<PodEntry> iterator() {
    return new Iterator<>() {
      private int next;

      @Override
      public boolean hasNext() {
        return next < size;
      }

      @Override
      public PodEntry next() {
        if (next >= size) {
          throw new NoSuchElementException();
        }
        return entries[next++];
      }
    };
  }
}
