package io.quotaflow.tree;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What changed since the last computation, so that it redoes only that (SPEC 7.6: the fixed point
 * recomputed eagerly, every changed group emitted): the groups whose aggregates (SPEC 6) or
 * distribution (SPEC 7) must be redone, by depth; the groups whose status or pods' classes must be
 * rebuilt, with the status fields that changed; the pods whose assignment may have changed; the
 * groups whose pods' charges changed. The per-slot flags live in the {@link GroupTable}; the lists
 * here hold each flagged slot once.
 *
 * <p>While the structure is dirty or a full pass is due, aggregation and distribution marks only
 * set the flags: the full pass redoes every group anyway.
 */
final class ChangeMarks {

  private final GroupTable t;

  /** The tree's shape must be rebuilt from the specs before the next computation. */
  boolean structureDirty = true;

  /** Recompute every aggregate and distribution, not only the dirty ones. */
  boolean fullPass = true;

  // Work lists of the incremental pass, by depth (flags live in the table).
  IntList[] aggBuckets = new IntList[0];
  IntList[] distBuckets = new IntList[0];
  final IntList unattachedAgg = new IntList();

  /** Groups whose status must be rebuilt, and per slot which of its fields changed. */
  final IntList statusList = new IntList();

  int[] changedFields = new int[64];

  /** Groups whose pods must be classed again. */
  final IntList podsList = new IntList();

  /** Pods whose assignment may have changed. */
  final List<PodEntry> pendingPods = new ArrayList<>();

  /**
   * Groups whose pods' charges changed since the last emission (flags in the table). A pod event
   * marks its group: a flag, not a set of names hashed on every event.
   */
  final IntList chargedList = new IntList();

  ChangeMarks(GroupTable t) {
    this.t = t;
  }

  void markAgg(int g) {
    if (t.aggDirty[g]) {
      return;
    }
    t.aggDirty[g] = true;
    if (structureDirty || fullPass) {
      return;
    }
    if (t.attached[g]) {
      aggBuckets[t.depth[g]].add(g);
    } else {
      unattachedAgg.add(g);
    }
  }

  void markDist(int g) {
    if (t.distDirty[g] || g < 0) {
      return;
    }
    t.distDirty[g] = true;
    if (!structureDirty && !fullPass && t.attached[g]) {
      distBuckets[t.depth[g]].add(g);
    }
  }

  /**
   * Notes that the status fields {@code fields} (see {@link StatusBuilder}) of {@code g} changed.
   */
  void markStatus(int g, int fields) {
    if (changedFields.length < t.capacity) {
      changedFields = Arrays.copyOf(changedFields, t.capacity);
    }
    changedFields[g] |= fields;
    if (!t.statusDirty[g]) {
      t.statusDirty[g] = true;
      statusList.add(g);
    }
  }

  void markPods(int g) {
    if (!t.podsDirty[g]) {
      t.podsDirty[g] = true;
      podsList.add(g);
    }
  }

  void markPending(PodEntry entry) {
    if (!entry.pending) {
      entry.pending = true;
      pendingPods.add(entry);
    }
  }

  void markCharged(int g) {
    if (!t.chargedDirty[g]) {
      t.chargedDirty[g] = true;
      chargedList.add(g);
    }
    markAgg(g);
  }

  /** Room in the work lists for a tree {@code depths} levels deep (root included). */
  void ensureDepths(int depths) {
    if (aggBuckets.length < depths) {
      aggBuckets = newBuckets(depths);
      distBuckets = newBuckets(depths);
    }
  }

  private static IntList[] newBuckets(int size) {
    final IntList[] buckets = new IntList[size];
    for (int i = 0; i < size; i++) {
      buckets[i] = new IntList();
    }
    return buckets;
  }

  /** Drops the aggregation and distribution work (a full pass does it all). */
  void clearWorkLists() {
    for (final IntList bucket : aggBuckets) {
      bucket.clear();
    }
    for (final IntList bucket : distBuckets) {
      bucket.clear();
    }
    unattachedAgg.clear();
    Arrays.fill(t.aggDirty, false);
    Arrays.fill(t.distDirty, false);
  }

  /** Moves every slot held here to where {@code layout} puts it. */
  void renumber(SlotPermutation layout) {
    if (changedFields.length < t.capacity) {
      changedFields = Arrays.copyOf(changedFields, t.capacity);
    }
    layout.move(changedFields);
    statusList.renumber(layout);
    podsList.renumber(layout);
    chargedList.renumber(layout);
    unattachedAgg.renumber(layout);
    for (int depth = 0; depth < aggBuckets.length; depth++) {
      aggBuckets[depth].renumber(layout);
      distBuckets[depth].renumber(layout);
    }
  }
}
