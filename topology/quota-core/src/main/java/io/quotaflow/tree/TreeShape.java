package io.quotaflow.tree;

import io.quotaflow.quota.SpecialGroups;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The shape of the tree computed from the groups' specs (SPEC 9): each group's parent, whether it
 * hangs from the root through valid links, whether it is valid and why not, its children in name
 * order, its depth, and the orders the computation walks in. Pure: reads the table, writes nothing.
 */
final class TreeShape {

  private static final int[] NO_CHILDREN = new int[0];
  private static final byte ON_PATH = 1;
  private static final byte DONE = 2;

  final int[] parent;

  /** Reaches the root through existing parent groups, without a cycle. */
  final boolean[] attached;

  final boolean[] valid;

  /** Why a group is invalid, or null. */
  final String[] reason;

  final int[][] children;

  /** Depth below the root; -1 outside the tree. */
  final int[] depth;

  /** Groups in the tree, breadth first from the root (parents before children). */
  final int[] order;

  /** Groups outside the tree, by name. */
  final int[] unattached;

  final int maxDepth;

  private TreeShape(
      int[] parent,
      boolean[] attached,
      boolean[] valid,
      String[] reason,
      int[][] children,
      int[] depth,
      int[] order,
      int[] unattached,
      int maxDepth) {
    this.parent = parent;
    this.attached = attached;
    this.valid = valid;
    this.reason = reason;
    this.children = children;
    this.depth = depth;
    this.order = order;
    this.unattached = unattached;
    this.maxDepth = maxDepth;
  }

  static TreeShape of(GroupTable t) {
    return new Builder(t).build();
  }

  /** The same shape with every group at the slot {@code p} moves it to. */
  TreeShape renumbered(SlotPermutation p) {
    final int[] newParent = p.renumbered(parent);
    p.move(newParent);
    final boolean[] newAttached = attached.clone();
    p.move(newAttached);
    final boolean[] newValid = valid.clone();
    p.move(newValid);
    final String[] newReason = reason.clone();
    p.move(newReason);
    final int[][] newChildren = new int[children.length][];
    for (int g = 0; g < children.length; g++) {
      newChildren[g] = p.renumbered(children[g]);
    }
    p.move(newChildren);
    final int[] newDepth = depth.clone();
    p.move(newDepth);
    return new TreeShape(
        newParent,
        newAttached,
        newValid,
        newReason,
        newChildren,
        newDepth,
        p.renumbered(order),
        p.renumbered(unattached),
        maxDepth);
  }

  /** Position of every group in snapshot order: depth first from the root, then the rest. */
  int[] rank() {
    final int[] rank = new int[parent.length];
    int position = 0;
    final IntList stack = new IntList();
    stack.add(GroupTable.ROOT);
    while (stack.size() > 0) {
      final int g = stack.pop();
      rank[g] = position++;
      for (int i = children[g].length - 1; i >= 0; i--) {
        stack.add(children[g][i]);
      }
    }
    for (final int g : unattached) {
      rank[g] = position++;
    }
    return rank;
  }

  private static final class Builder {
    private final GroupTable t;

    Builder(GroupTable t) {
      this.t = t;
    }

    TreeShape build() {
      final int n = t.limit;
      final int[] parent = new int[n];
      final String[] problem = new String[n];
      final boolean[] attached = new boolean[n];
      final String[] reason = new String[n];
      final int[] owner = new int[n];
      Arrays.fill(parent, -1);
      Arrays.fill(owner, -1);
      for (int g = 0; g < n; g++) {
        if (!t.present[g] || g == GroupTable.ROOT) {
          continue;
        }
        if (!t.isNormal(g)) {
          parent[g] = GroupTable.ROOT;
          continue;
        }
        final String parentName = t.spec[g].parent();
        final Integer p =
            parentName.isEmpty() || SpecialGroups.ROOT.equals(parentName)
                ? Integer.valueOf(GroupTable.ROOT)
                : t.index.get(parentName);
        if (p == null) {
          problem[g] = "parent " + parentName + " does not exist";
        } else if (t.isSpecial(p)) {
          parent[g] = p;
          problem[g] = "parent " + parentName + " is a special group and cannot have children";
        } else if (p != GroupTable.ROOT && !t.spec[p].parentGroup()) {
          parent[g] = p;
          problem[g] =
              "parent " + parentName + " is not a parent group (is-parent is not \"true\")";
        } else {
          parent[g] = p;
        }
      }
      // Attach every group whose chain of parents reaches the root without a broken link.
      final byte[] state = new byte[n];
      final IntList path = new IntList();
      for (int start = 0; start < n; start++) {
        if (!t.present[start] || !t.isNormal(start) || state[start] == DONE) {
          continue;
        }
        path.clear();
        int current = start;
        while (true) {
          if (current == GroupTable.ROOT || state[current] == DONE) {
            break;
          }
          if (state[current] == ON_PATH) {
            markCycle(path, current, state, reason, owner);
            break;
          }
          if (problem[current] != null) {
            state[current] = DONE;
            reason[current] = problem[current];
            owner[current] = current;
            break;
          }
          state[current] = ON_PATH;
          path.add(current);
          current = parent[current];
        }
        for (int i = path.size() - 1; i >= 0; i--) {
          final int g = path.get(i);
          if (state[g] == DONE) {
            continue;
          }
          state[g] = DONE;
          final int p = parent[g];
          if (p == GroupTable.ROOT || attached[p]) {
            attached[g] = true;
          } else {
            owner[g] = owner[p];
            reason[g] = "ancestor " + t.name[owner[p]] + " is invalid";
          }
        }
      }
      attached[GroupTable.ROOT] = true;
      attached[GroupTable.SYSTEM] = true;
      attached[GroupTable.DEFAULT] = true;
      // Children lists in name order (ties in the split go to names in ascending order): each
      // family sorted on its own, which is cheaper than ordering every name of the tree.
      final int[] childCount = new int[n];
      for (int g = 0; g < n; g++) {
        if (t.present[g] && g != GroupTable.ROOT && attached[g]) {
          childCount[parent[g]]++;
        }
      }
      final int[][] children = new int[n][];
      for (int g = 0; g < n; g++) {
        children[g] = childCount[g] == 0 ? NO_CHILDREN : new int[childCount[g]];
        childCount[g] = 0;
      }
      for (int g = 0; g < n; g++) {
        if (t.present[g] && g != GroupTable.ROOT && attached[g]) {
          children[parent[g]][childCount[parent[g]]++] = g;
        }
      }
      final SlotsByName byName = new SlotsByName(t.name);
      for (final int[] family : children) {
        byName.sort(family);
      }
      // Breadth-first order, depth and validity top down.
      final IntList bfs = new IntList();
      bfs.add(GroupTable.ROOT);
      final boolean[] valid = new boolean[n];
      final int[] depth = new int[n];
      valid[GroupTable.ROOT] = true;
      int deepest = 0;
      for (int i = 0; i < bfs.size(); i++) {
        final int g = bfs.get(i);
        for (final int c : children[g]) {
          bfs.add(c);
          depth[c] = depth[g] + 1;
          deepest = Math.max(deepest, depth[c]);
          if (t.localProblem[c] != null) {
            reason[c] = t.localProblem[c];
            owner[c] = c;
          } else if (!valid[g]) {
            owner[c] = owner[g];
            reason[c] = "ancestor " + t.name[owner[g]] + " is invalid";
          } else {
            valid[c] = true;
          }
        }
      }
      final IntList outside = new IntList();
      for (int g = 0; g < n; g++) {
        if (t.present[g] && !attached[g]) {
          outside.add(g);
          depth[g] = -1;
        }
      }
      final int[] unattached = outside.toArray();
      byName.sort(unattached);
      return new TreeShape(
          parent, attached, valid, reason, children, depth, bfs.toArray(), unattached, deepest);
    }

    private void markCycle(IntList path, int current, byte[] state, String[] reason, int[] owner) {
      int from = path.size() - 1;
      while (path.get(from) != current) {
        from--;
      }
      final List<String> names = new ArrayList<>();
      int smallest = current;
      for (int i = from; i < path.size(); i++) {
        names.add(t.name[path.get(i)]);
        if (t.name[path.get(i)].compareTo(t.name[smallest]) < 0) {
          smallest = path.get(i);
        }
      }
      // Start the description at the smallest name so that it does not depend on input order.
      final int rotation = names.indexOf(t.name[smallest]);
      final List<String> rotated = new ArrayList<>(names.subList(rotation, names.size()));
      rotated.addAll(names.subList(0, rotation));
      rotated.add(rotated.get(0));
      final String text = "on a parent cycle: " + String.join(" -> ", rotated);
      for (int i = from; i < path.size(); i++) {
        final int g = path.get(i);
        state[g] = DONE;
        reason[g] = text;
        owner[g] = g;
      }
    }
  }

  /** Sorts slots by their groups' names (distinct): insertion sort for a few, else merge sort. */
  static final class SlotsByName {
    private final String[] names;
    private int[] scratch = new int[0];

    SlotsByName(String[] names) {
      this.names = names;
    }

    void sort(int[] slots) {
      if (slots.length > 1) {
        if (scratch.length < slots.length) {
          scratch = new int[slots.length];
        }
        sort(slots, 0, slots.length);
      }
    }

    private void sort(int[] slots, int from, int to) {
      if (to - from <= 16) {
        for (int i = from + 1; i < to; i++) {
          final int slot = slots[i];
          final String name = names[slot];
          int j = i - 1;
          while (j >= from && names[slots[j]].compareTo(name) > 0) {
            slots[j + 1] = slots[j];
            j--;
          }
          slots[j + 1] = slot;
        }
        return;
      }
      final int mid = (from + to) >>> 1;
      sort(slots, from, mid);
      sort(slots, mid, to);
      int left = from;
      int right = mid;
      int out = from;
      while (left < mid && right < to) {
        scratch[out++] =
            names[slots[left]].compareTo(names[slots[right]]) <= 0 ? slots[left++] : slots[right++];
      }
      while (left < mid) {
        scratch[out++] = slots[left++];
      }
      while (right < to) {
        scratch[out++] = slots[right++];
      }
      System.arraycopy(scratch, from, slots, from, to - from);
    }
  }
}
