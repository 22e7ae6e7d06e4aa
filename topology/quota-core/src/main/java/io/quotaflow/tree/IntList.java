package io.quotaflow.tree;

import java.util.Arrays;

/** A growable list of ints, to keep group indices off the heap of boxed integers. */
final class IntList {

  private int[] items = new int[16];
  private int size;

  void add(int value) {
    if (size == items.length) {
      items = Arrays.copyOf(items, size * 2);
    }
    items[size++] = value;
  }

  int pop() {
    return items[--size];
  }

  int get(int i) {
    return items[i];
  }

  int size() {
    return size;
  }

  void clear() {
    size = 0;
  }

  /** Rewrites every slot in the list. */
  void renumber(SlotPermutation p) {
    for (int i = 0; i < size; i++) {
      items[i] = p.target(items[i]);
    }
  }

  int[] toArray() {
    return Arrays.copyOf(items, size);
  }
}
