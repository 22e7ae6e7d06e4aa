package io.quotaflow.tree;

import java.util.Arrays;

/**
 * A renumbering of group slots: slot {@code s} moves to {@link #target target(s)}. Arrays indexed
 * by slot are permuted in place (so references to them stay valid) and arrays holding slots are
 * rewritten. Slots from {@link #size()} on do not move.
 *
 * <p>{@link #treeOrder} lays groups out the way the full recomputation walks them: breadth first
 * from the root, so a parent's children are consecutive slots in name order and each depth is a
 * contiguous range; summing or splitting among children then reads memory forwards.
 */
final class SlotPermutation {

  private final int[] target;

  // Scratch copies for the in-place moves, grown on demand.
  private long[] longs = new long[0];
  private boolean[] booleans = new boolean[0];
  private int[] ints = new int[0];
  private Object[] objects = new Object[0];

  SlotPermutation(int[] target) {
    this.target = target;
  }

  /**
   * The tree-order layout of the present slots below {@code limit}: the root and the special groups
   * keep slots 0-2; then the other groups of {@code order} (breadth first), then {@code
   * unattached}, then the slots of no group. Null when every slot already sits where this layout
   * puts it.
   */
  static SlotPermutation treeOrder(int[] order, int[] unattached, boolean[] present, int limit) {
    final int[] target = new int[limit];
    Arrays.fill(target, -1);
    int next = 0;
    for (int g = 0; g <= GroupTable.DEFAULT; g++) {
      target[g] = next++;
    }
    for (final int g : order) {
      if (target[g] < 0) {
        target[g] = next++;
      }
    }
    for (final int g : unattached) {
      target[g] = next++;
    }
    for (int g = 0; g < limit; g++) {
      if (target[g] < 0) {
        if (present[g]) {
          throw new IllegalStateException("slot " + g + " is in no order");
        }
        target[g] = next++;
      }
    }
    for (int g = 0; g < limit; g++) {
      if (target[g] != g) {
        return new SlotPermutation(target);
      }
    }
    return null;
  }

  /** How many slots the permutation covers. */
  int size() {
    return target.length;
  }

  /** Where slot {@code slot} goes; -1 (no slot) stays -1; slots past {@link #size()} stay put. */
  int target(int slot) {
    return slot < 0 || slot >= target.length ? slot : target[slot];
  }

  /** Moves each covered element of {@code values} to its slot's target. */
  void move(long[] values) {
    final int n = target.length;
    if (longs.length < n) {
      longs = new long[n];
    }
    System.arraycopy(values, 0, longs, 0, n);
    for (int s = 0; s < n; s++) {
      values[target[s]] = longs[s];
    }
  }

  void move(boolean[] values) {
    final int n = target.length;
    if (booleans.length < n) {
      booleans = new boolean[n];
    }
    System.arraycopy(values, 0, booleans, 0, n);
    for (int s = 0; s < n; s++) {
      values[target[s]] = booleans[s];
    }
  }

  void move(int[] values) {
    final int n = target.length;
    if (ints.length < n) {
      ints = new int[n];
    }
    System.arraycopy(values, 0, ints, 0, n);
    for (int s = 0; s < n; s++) {
      values[target[s]] = ints[s];
    }
  }

  <T> void move(T[] values) {
    final int n = target.length;
    if (objects.length < n) {
      objects = new Object[n];
    }
    System.arraycopy(values, 0, objects, 0, n);
    for (int s = 0; s < n; s++) {
      @SuppressWarnings("unchecked")
      final T value = (T) objects[s];
      values[target[s]] = value;
    }
    Arrays.fill(objects, 0, n, null);
  }

  /** Rewrites every slot held in {@code slots} (-1 for none stays). */
  void renumber(int[] slots) {
    for (int i = 0; i < slots.length; i++) {
      slots[i] = target(slots[i]);
    }
  }

  /** A copy of {@code slots} with every slot rewritten. */
  int[] renumbered(int[] slots) {
    if (slots.length == 0) {
      return slots;
    }
    final int[] copy = slots.clone();
    renumber(copy);
    return copy;
  }
}
