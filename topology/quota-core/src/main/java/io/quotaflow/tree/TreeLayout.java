package io.quotaflow.tree;

import io.quotaflow.quota.ResourceList;
import java.util.Arrays;
import java.util.Objects;

/**
 * The tree's shape (SPEC 9: parents, validity) as the computation walks it: taken over from a
 * {@link TreeShape} into the {@link GroupTable} whenever a group is added, removed, moved or made
 * valid or invalid, with the slots renumbered into tree order ({@link SlotPermutation}) so that
 * children sit at consecutive slots; and the walks derived from it: the leaves as runs of slots,
 * the parents by depth, who takes part in a split, and which parents' children are contiguous.
 */
final class TreeLayout {

  private final GroupTable t;
  private final ChangeMarks marks;

  /** Groups outside the tree, by name. */
  int[] unattached = new int[0];

  /**
   * The leaves of the tree (groups without children) as runs of consecutive slots, {@code [from,
   * to)} pairs: with slots in tree order the leaves are a few long runs, walked by counted loops
   * forwards instead of jumping around them in breadth-first order.
   */
  int[] leafRuns = new int[0];

  /** The most children any group in the tree has. */
  int widest;

  /**
   * The groups of the tree with children, by depth (parents before children), slots ascending
   * within a depth.
   */
  int[] splitters = new int[0];

  /** Each group's position in snapshot order. */
  int[] rank = new int[0];

  /** Per slot: a normal, valid group in the tree, one that takes part in its parent's split. */
  boolean[] participating = new boolean[0];

  /** {@link #contiguousChildren} per dimension (null: not built yet). */
  private int[][] firstChildren = new int[0][];

  TreeLayout(GroupTable t, ChangeMarks marks) {
    this.t = t;
    this.marks = marks;
  }

  /** Rebuilds the tree's shape from the specs and takes it over, noting what changed. */
  void rebuild() {
    TreeShape shape = TreeShape.of(t);
    final SlotPermutation layout =
        SlotPermutation.treeOrder(shape.order, shape.unattached, t.present, t.limit);
    if (layout != null) {
      renumber(layout);
      shape = shape.renumbered(layout);
    }
    final int n = t.limit;
    for (int g = 0; g < n; g++) {
      if (!t.present[g]) {
        continue;
      }
      final boolean isParent = g == GroupTable.ROOT || (t.isNormal(g) && t.spec[g].parentGroup());
      if (t.parent[g] != shape.parent[g]
          || t.attached[g] != shape.attached[g]
          || t.valid[g] != shape.valid[g]
          || !Objects.equals(t.reason[g], shape.reason[g])
          || t.isParent[g] != isParent) {
        marks.markStatus(g, StatusBuilder.ALL);
      }
      if (!shape.valid[g]) {
        if (t.frozen[g] == null) {
          // Invalid from now on: keep the runtime last handed out (none for a new group).
          t.frozen[g] = t.status[g] == null ? ResourceList.empty() : t.status[g].runtime();
        }
      } else {
        t.frozen[g] = null;
      }
      t.parent[g] = shape.parent[g];
      t.attached[g] = shape.attached[g];
      t.valid[g] = shape.valid[g];
      t.reason[g] = shape.reason[g];
      t.isParent[g] = isParent;
      t.children[g] = shape.children[g];
      t.depth[g] = shape.depth[g];
    }
    participating = new boolean[t.capacity];
    for (int g = GroupTable.DEFAULT + 1; g < n; g++) {
      participating[g] = t.present[g] && shape.valid[g] && shape.attached[g];
    }
    unattached = shape.unattached;
    sortBySlot(shape.order);
    firstChildren = new int[0][];
    rank = shape.rank();
    marks.ensureDepths(shape.maxDepth + 1);
  }

  /**
   * Moves every group to the slot {@code layout} gives it, with everything that holds a slot: the
   * table, the pods' charged slots and the pending work.
   */
  private void renumber(SlotPermutation layout) {
    for (int g = 0; g < layout.size(); g++) {
      if (t.present[g] && layout.target(g) != g) {
        for (final PodEntry entry : t.pods[g]) {
          entry.group = layout.target(g);
        }
      }
    }
    t.permute(layout);
    marks.renumber(layout);
  }

  /** Fills {@link #leafRuns}, {@link #splitters} and {@link #widest} from the tree's groups. */
  private void sortBySlot(int[] order) {
    int deepest = 0;
    int leaves = 0;
    final boolean[] inOrder = new boolean[t.limit];
    for (final int g : order) {
      inOrder[g] = true;
      deepest = Math.max(deepest, t.depth[g]);
      if (t.children[g].length == 0) {
        leaves++;
      }
    }
    final int[] start = new int[deepest + 2];
    for (final int g : order) {
      if (t.children[g].length > 0) {
        start[t.depth[g] + 1]++;
      }
    }
    for (int depth = 1; depth < start.length; depth++) {
      start[depth] += start[depth - 1];
    }
    final int[] leavesBySlot = new int[leaves];
    final int[] parents = new int[order.length - leaves];
    int k = 0;
    for (int g = 0; g < t.limit; g++) {
      if (inOrder[g]) {
        if (t.children[g].length == 0) {
          leavesBySlot[k++] = g;
        } else {
          parents[start[t.depth[g]]++] = g;
        }
      }
    }
    widest = 0;
    for (final int p : parents) {
      widest = Math.max(widest, t.children[p].length);
    }
    leafRuns = runs(leavesBySlot);
    splitters = parents;
  }

  /** Ascending slots as {@code [from, to)} pairs of consecutive slots. */
  private static int[] runs(int[] ascending) {
    final IntList runs = new IntList();
    for (int i = 0; i < ascending.length; i++) {
      if (i == 0 || ascending[i] != ascending[i - 1] + 1) {
        if (i > 0) {
          runs.add(ascending[i - 1] + 1);
        }
        runs.add(ascending[i]);
      }
    }
    if (ascending.length > 0) {
      runs.add(ascending[ascending.length - 1] + 1);
    }
    return runs.toArray();
  }

  /**
   * Per parent, for dimension {@code d}: the slot of its first child if its children sit at
   * consecutive slots and every one of them tracks {@code d} and takes part in the split, else -1.
   * Derived from the shape and the tracked dimensions (both change only with the structure), built
   * on first use after a rebuild or a new dimension.
   */
  int[] contiguousChildren(int d) {
    if (d >= firstChildren.length) {
      firstChildren = Arrays.copyOf(firstChildren, t.dims.count());
    }
    int[] first = firstChildren[d];
    if (first == null) {
      first = new int[t.limit];
      Arrays.fill(first, -1);
      final boolean[] tracked = t.tracked[d];
      for (final int p : splitters) {
        final int[] kids = t.children[p];
        boolean dense = kids.length > 0;
        for (int i = 0; i < kids.length && dense; i++) {
          final int c = kids[i];
          dense = c == kids[0] + i && participating[c] && tracked[c];
        }
        first[p] = dense ? kids[0] : -1;
      }
      firstChildren[d] = first;
    }
    return first;
  }
}
