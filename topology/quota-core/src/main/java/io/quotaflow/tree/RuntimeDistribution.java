package io.quotaflow.tree;

import java.util.Arrays;

/**
 * Down the tree (SPEC 7, 8): the root distributes the cluster total minus what the system and
 * default groups use; every other valid parent distributes its own runtime among the children that
 * take part in its split, per dimension, with the {@link WaterFill}. The system group may use the
 * whole cluster and the default group is bounded by its max; neither competes for the root's
 * surplus. Runtimes and scaled mins are stored in place in the {@link GroupTable} and changes noted
 * in the {@link ChangeMarks}; a child parent whose runtime changed is marked to split again.
 */
final class RuntimeDistribution {

  private final GroupTable t;
  private final TreeLayout layout;
  private final ChangeMarks marks;
  private final NodeTotals nodes;
  private final boolean minScaling;
  private final boolean guaranteeUsage;
  private final WaterFill fill = new WaterFill();
  private final PastUsage pastUsage;

  /** Per dimension: what the root distributes. */
  private long[] rootAvailable = new long[0];

  // Scratch for one distribution.
  private int[] bufIndex = new int[16];
  private long[] bufRequest = new long[16];
  private long[] bufMin = new long[16];
  private long[] bufWeight = new long[16];
  private long[] bufScaled = new long[16];
  private long[] bufRuntime = new long[16];
  private long[] bufGuaranteed = new long[16];

  RuntimeDistribution(
      GroupTable t,
      TreeLayout layout,
      ChangeMarks marks,
      NodeTotals nodes,
      boolean minScaling,
      boolean guaranteeUsage,
      PastUsage pastUsage) {
    this.t = t;
    this.pastUsage = pastUsage;
    this.layout = layout;
    this.marks = marks;
    this.nodes = nodes;
    this.minScaling = minScaling;
    this.guaranteeUsage = guaranteeUsage;
  }

  /** Makes room for {@code count} dimensions. */
  void syncDimensions(int count) {
    if (rootAvailable.length < count) {
      rootAvailable = Arrays.copyOf(rootAvailable, count);
    }
  }

  /** Splits again in every parent marked, parents before children. */
  void distributeDown() {
    refreshRootAvailable();
    final IntList[] distBuckets = marks.distBuckets;
    for (int depth = 0; depth < distBuckets.length; depth++) {
      final IntList bucket = distBuckets[depth];
      for (int i = 0; i < bucket.size(); i++) {
        final int p = bucket.get(i);
        if (!t.present[p] || !t.distDirty[p]) {
          continue;
        }
        t.distDirty[p] = false;
        if (t.valid[p]) {
          distribute(p);
        }
      }
      bucket.clear();
    }
  }

  /** Every valid parent's split in dimension {@code d}, parents before children. */
  void distributeEveryParent(int d) {
    ensureBuffers(layout.widest);
    for (final int p : layout.splitters) {
      if (t.isParent[p] && t.valid[p]) {
        distributeDimension(p, d);
      }
    }
  }

  /** The root distributes the cluster total minus what the system and default groups use. */
  private void refreshRootAvailable() {
    final int count = t.dims.count();
    boolean changed = false;
    for (int d = 0; d < count; d++) {
      changed |= refreshRootAvailable(d);
    }
    if (changed) {
      rootChanged();
    }
  }

  /** {@link #refreshRootAvailable()} in one dimension; true if it changed (nothing marked). */
  boolean refreshRootAvailable(int d) {
    final long carved = Arith.add(t.used[d][GroupTable.SYSTEM], t.used[d][GroupTable.DEFAULT]);
    final long available = Math.max(0L, nodes.total(d) - carved);
    boolean changed = false;
    if (rootAvailable[d] != available) {
      rootAvailable[d] = available;
      changed = true;
    }
    if (t.runtime[d][GroupTable.ROOT] != available) {
      t.runtime[d][GroupTable.ROOT] = available;
      changed = true;
    }
    return changed;
  }

  /** Marks what a change of the root's available total affects. */
  void rootChanged() {
    marks.markDist(GroupTable.ROOT);
    marks.markStatus(GroupTable.ROOT, StatusBuilder.RUNTIME);
  }

  private void distribute(int p) {
    ensureBuffers(t.children[p].length);
    final int count = t.dims.count();
    for (int d = 0; d < count; d++) {
      distributeDimension(p, d);
    }
    if (p == GroupTable.ROOT) {
      distributeToSpecialGroups();
    }
  }

  /** One parent's distribution in one dimension (buffers sized by the caller). */
  private void distributeDimension(int p, int d) {
    // A dimension the parent does not track is not bounded at its level.
    final boolean unbounded = p != GroupTable.ROOT && !t.tracked[d][p];
    final long available = p == GroupTable.ROOT ? rootAvailable[d] : t.runtime[d][p];
    final boolean[] tracked = t.tracked[d];
    final boolean[] participating = layout.participating;
    final long[] limitedColumn = t.limited[d];
    final long[] minColumn = t.min[d];
    final long[] weightColumn = t.weight[d];
    final long[] guaranteedColumn = t.guaranteed[d];
    final long[] guaranteed = bufGuaranteed;
    final int[] kids = t.children[p];
    final int[] firstChild = layout.contiguousChildren(d);
    final int first = p < firstChild.length ? firstChild[p] : -1;
    final int[] index = bufIndex;
    final long[] request = bufRequest;
    final long[] min = bufMin;
    final long[] weight = bufWeight;
    int n = 0;
    if (first >= 0) {
      // Every child takes part, at consecutive slots: plain copies, no filter.
      n = kids.length;
      for (int i = 0; i < n; i++) {
        index[i] = first + i;
        request[i] = limitedColumn[first + i];
        min[i] = minColumn[first + i];
        weight[i] = weightColumn[first + i];
        guaranteed[i] = guaranteedColumn[first + i];
      }
    } else {
      // Without branches: most children of a parent tracking a rare dimension do not track it.
      for (final int c : kids) {
        index[n] = c;
        request[n] = limitedColumn[c];
        min[n] = minColumn[c];
        weight[n] = weightColumn[c];
        guaranteed[n] = guaranteedColumn[c];
        n += tracked[c] & participating[c] ? 1 : 0;
      }
    }
    if (n == 0) {
      return;
    }
    if (!unbounded && !pastUsage.isEmpty()) {
      // Fair share with memory (section 24): only the weights of this split change.
      pastUsage.weigh(t, t.dims.name(d), available, n, index, weight);
    }
    final long[] scaled = bufScaled;
    final long[] runtime = bufRuntime;
    fill.distribute(
        available,
        unbounded,
        n,
        request,
        min,
        weight,
        minScaling,
        guaranteeUsage ? guaranteed : null,
        scaled,
        runtime);
    final long[] scaledColumn = t.scaledMin[d];
    final long[] runtimeColumn = t.runtime[d];
    // Usually nothing changed: one loop without branches tells, before the one that marks.
    long difference = 0;
    for (int i = 0; i < n; i++) {
      final int c = index[i];
      difference |= (scaledColumn[c] ^ scaled[i]) | (runtimeColumn[c] ^ runtime[i]);
    }
    if (difference == 0) {
      return;
    }
    for (int i = 0; i < n; i++) {
      final int c = index[i];
      if (scaledColumn[c] != scaled[i]) {
        scaledColumn[c] = scaled[i];
        marks.markStatus(c, StatusBuilder.SCALED);
      }
      if (runtimeColumn[c] != runtime[i]) {
        runtimeColumn[c] = runtime[i];
        marks.markStatus(c, StatusBuilder.RUNTIME);
        if (t.isParent[c]) {
          marks.markDist(c);
        }
      }
    }
  }

  /** The system group may use the whole cluster; the default group is bounded by its max. */
  void distributeToSpecialGroups() {
    final int count = t.dims.count();
    for (final int s : new int[] {GroupTable.SYSTEM, GroupTable.DEFAULT}) {
      for (int d = 0; d < count; d++) {
        final long runtime = Math.min(nodes.total(d), t.effMax[d][s]);
        if (t.runtime[d][s] != runtime) {
          t.runtime[d][s] = runtime;
          marks.markStatus(s, StatusBuilder.RUNTIME);
        }
        if (t.scaledMin[d][s] != t.min[d][s]) {
          t.scaledMin[d][s] = t.min[d][s];
          marks.markStatus(s, StatusBuilder.SCALED);
        }
      }
    }
  }

  private void ensureBuffers(int n) {
    if (bufIndex.length < n) {
      final int size = Math.max(n, bufIndex.length * 2);
      bufIndex = new int[size];
      bufRequest = new long[size];
      bufMin = new long[size];
      bufWeight = new long[size];
      bufScaled = new long[size];
      bufRuntime = new long[size];
      bufGuaranteed = new long[size];
    }
  }
}
