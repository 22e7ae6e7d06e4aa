package io.quotaflow.tree;

import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ResourceList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The primitive-array store behind {@link ClusterQuotaState}: one slot per group (index 0 is the
 * root, 1 the system group, 2 the default group) and one column per interned dimension. Inputs
 * (spec-derived values, exact pod sums) and outputs (aggregates, runtimes) live side by side so
 * that a recomputation writes in place and notices what changed.
 */
final class GroupTable {

  static final int ROOT = 0;
  static final int SYSTEM = 1;
  static final int DEFAULT = 2;

  final Dimensions dims = new Dimensions();
  int capacity;

  /** One past the highest slot ever used. */
  int limit = 3;

  final Map<String, Integer> index;
  private int[] free = new int[8];
  private int freeCount;

  String[] name;
  QuotaGroup[] spec;
  boolean[] present;

  /** Pods charged to each group. */
  GroupPods[] pods;

  // Structure (rebuilt on structural change).
  int[] parent;
  int[][] children;
  int[] depth;
  boolean[] attached;
  boolean[] valid;
  boolean[] isParent;
  String[] reason;
  String[] localProblem;
  String[] warning;
  ResourceList[] frozen;
  GroupStatus[] status;

  // Per dimension: spec-derived inputs.
  boolean[][] tracked = new boolean[0][];
  long[][] min = new long[0][];
  long[][] effMax = new long[0][];
  long[][] floor = new long[0][];
  long[][] weight = new long[0][];
  int[] trackCount = new int[0];

  // Exact own sums of charged pods.
  final ExactSums ownRequest;
  final ExactSums ownUsed;
  final ExactSums ownNpRequest;
  final ExactSums ownNpUsed;

  // Per dimension: outputs.
  long[][] request = new long[0][];
  long[][] limited = new long[0][];
  long[][] used = new long[0][];
  long[][] npRequest = new long[0][];
  long[][] npUsed = new long[0][];
  long[][] scaledMin = new long[0][];
  long[][] runtime = new long[0][];

  /**
   * Guaranteed usage (docs/semantics.md section 17): {@code max(min, own used + Σ children's
   * guaranteed)}; all zero unless the guarantee of allocated usage is on.
   */
  long[][] guaranteed = new long[0][];

  /**
   * Whether any computation has written the output columns yet: until then they are all zero, and
   * renumbering the slots (the first layout of a cold start) has nothing to move there.
   */
  boolean outputsWritten;

  // Dirty flags.
  boolean[] aggDirty;
  boolean[] distDirty;
  boolean[] statusDirty;
  boolean[] podsDirty;
  boolean[] chargedDirty;

  GroupTable(int initialCapacity) {
    capacity = Math.max(8, initialCapacity);
    // Sized for the groups a cold start is about to load, so the index is not rehashed on the way.
    index = new HashMap<>(capacity * 4 / 3 + 1);
    name = new String[capacity];
    spec = new QuotaGroup[capacity];
    present = new boolean[capacity];
    pods = new GroupPods[capacity];
    parent = new int[capacity];
    children = new int[capacity][];
    depth = new int[capacity];
    attached = new boolean[capacity];
    valid = new boolean[capacity];
    isParent = new boolean[capacity];
    reason = new String[capacity];
    localProblem = new String[capacity];
    warning = new String[capacity];
    frozen = new ResourceList[capacity];
    status = new GroupStatus[capacity];
    aggDirty = new boolean[capacity];
    distDirty = new boolean[capacity];
    statusDirty = new boolean[capacity];
    podsDirty = new boolean[capacity];
    chargedDirty = new boolean[capacity];
    ownRequest = new ExactSums(capacity);
    ownUsed = new ExactSums(capacity);
    ownNpRequest = new ExactSums(capacity);
    ownNpUsed = new ExactSums(capacity);
    Arrays.fill(children, new int[0]);
    Arrays.fill(parent, -1);
  }

  /** A free slot for a new group name. */
  int allocate(String groupName) {
    final int slot;
    if (freeCount > 0) {
      slot = free[--freeCount];
    } else {
      if (limit == capacity) {
        grow(capacity * 2);
      }
      slot = limit++;
    }
    name[slot] = groupName;
    present[slot] = true;
    pods[slot] = new GroupPods();
    index.put(groupName, slot);
    return slot;
  }

  void release(int slot) {
    index.remove(name[slot]);
    name[slot] = null;
    spec[slot] = null;
    present[slot] = false;
    pods[slot] = null;
    parent[slot] = -1;
    children[slot] = new int[0];
    attached[slot] = false;
    valid[slot] = false;
    reason[slot] = null;
    localProblem[slot] = null;
    warning[slot] = null;
    frozen[slot] = null;
    status[slot] = null;
    aggDirty[slot] = false;
    distDirty[slot] = false;
    statusDirty[slot] = false;
    podsDirty[slot] = false;
    chargedDirty[slot] = false;
    for (int d = 0; d < tracked.length; d++) {
      tracked[d][slot] = false;
      min[d][slot] = 0;
      effMax[d][slot] = 0;
      floor[d][slot] = 0;
      weight[d][slot] = 0;
      request[d][slot] = 0;
      limited[d][slot] = 0;
      used[d][slot] = 0;
      npRequest[d][slot] = 0;
      npUsed[d][slot] = 0;
      scaledMin[d][slot] = 0;
      runtime[d][slot] = 0;
      guaranteed[d][slot] = 0;
    }
    ownRequest.clear(slot);
    ownUsed.clear(slot);
    ownNpRequest.clear(slot);
    ownNpUsed.clear(slot);
    if (freeCount == free.length) {
      free = Arrays.copyOf(free, freeCount * 2);
    }
    free[freeCount++] = slot;
  }

  /**
   * Moves every group to the slot {@code p} gives it (see {@link SlotPermutation#treeOrder}): every
   * per-slot array, the slots held in the structure and the index. The slots of no group end up
   * after the present ones and are free again.
   */
  void permute(SlotPermutation p) {
    p.move(name);
    p.move(spec);
    p.move(present);
    p.move(pods);
    p.move(parent);
    p.renumber(parent);
    p.move(children);
    for (int g = 0; g < capacity; g++) {
      children[g] = p.renumbered(children[g]);
    }
    p.move(depth);
    p.move(attached);
    p.move(valid);
    p.move(isParent);
    p.move(reason);
    p.move(localProblem);
    p.move(warning);
    p.move(frozen);
    p.move(status);
    p.move(aggDirty);
    p.move(distDirty);
    p.move(statusDirty);
    p.move(podsDirty);
    p.move(chargedDirty);
    for (int d = 0; d < tracked.length; d++) {
      p.move(tracked[d]);
      for (final long[][] columns : new long[][][] {min, effMax, floor, weight}) {
        p.move(columns[d]);
      }
      if (outputsWritten) {
        for (final long[][] columns :
            new long[][][] {
              request, limited, used, npRequest, npUsed, scaledMin, runtime, guaranteed
            }) {
          p.move(columns[d]);
        }
      }
    }
    ownRequest.permute(p);
    ownUsed.permute(p);
    ownNpRequest.permute(p);
    ownNpUsed.permute(p);
    index.replaceAll((groupName, slot) -> p.target(slot));
    // Present slots come first: the rest, up to the old limit, are released and reusable.
    int count = 0;
    while (count < limit && present[count]) {
      count++;
    }
    limit = count;
    freeCount = 0;
  }

  boolean isSpecial(int g) {
    return g == SYSTEM || g == DEFAULT;
  }

  /** A normal (non-root, non-special) group. */
  boolean isNormal(int g) {
    return g > DEFAULT;
  }

  /** Takes in dimensions interned since the last call. */
  void syncDimensions() {
    final int count = dims.count();
    if (count == tracked.length) {
      return;
    }
    final int old = tracked.length;
    tracked = Arrays.copyOf(tracked, count);
    min = extend(min, count);
    effMax = extend(effMax, count);
    floor = extend(floor, count);
    weight = extend(weight, count);
    request = extend(request, count);
    limited = extend(limited, count);
    used = extend(used, count);
    npRequest = extend(npRequest, count);
    npUsed = extend(npUsed, count);
    scaledMin = extend(scaledMin, count);
    runtime = extend(runtime, count);
    guaranteed = extend(guaranteed, count);
    trackCount = Arrays.copyOf(trackCount, count);
    for (int d = old; d < count; d++) {
      tracked[d] = new boolean[capacity];
      // The root and the special groups see every dimension; nothing bounds them by default.
      for (int g = 0; g <= DEFAULT; g++) {
        tracked[d][g] = true;
        effMax[d][g] = Arith.UNBOUNDED;
      }
    }
    ownRequest.ensure(count, capacity);
    ownUsed.ensure(count, capacity);
    ownNpRequest.ensure(count, capacity);
    ownNpUsed.ensure(count, capacity);
  }

  private long[][] extend(long[][] columns, int count) {
    final int old = columns.length;
    final long[][] result = Arrays.copyOf(columns, count);
    for (int d = old; d < count; d++) {
      result[d] = new long[capacity];
    }
    return result;
  }

  private void grow(int newCapacity) {
    name = Arrays.copyOf(name, newCapacity);
    spec = Arrays.copyOf(spec, newCapacity);
    present = Arrays.copyOf(present, newCapacity);
    pods = Arrays.copyOf(pods, newCapacity);
    parent = Arrays.copyOf(parent, newCapacity);
    Arrays.fill(parent, capacity, newCapacity, -1);
    children = Arrays.copyOf(children, newCapacity);
    Arrays.fill(children, capacity, newCapacity, new int[0]);
    depth = Arrays.copyOf(depth, newCapacity);
    attached = Arrays.copyOf(attached, newCapacity);
    valid = Arrays.copyOf(valid, newCapacity);
    isParent = Arrays.copyOf(isParent, newCapacity);
    reason = Arrays.copyOf(reason, newCapacity);
    localProblem = Arrays.copyOf(localProblem, newCapacity);
    warning = Arrays.copyOf(warning, newCapacity);
    frozen = Arrays.copyOf(frozen, newCapacity);
    status = Arrays.copyOf(status, newCapacity);
    aggDirty = Arrays.copyOf(aggDirty, newCapacity);
    distDirty = Arrays.copyOf(distDirty, newCapacity);
    statusDirty = Arrays.copyOf(statusDirty, newCapacity);
    podsDirty = Arrays.copyOf(podsDirty, newCapacity);
    chargedDirty = Arrays.copyOf(chargedDirty, newCapacity);
    for (int d = 0; d < tracked.length; d++) {
      tracked[d] = Arrays.copyOf(tracked[d], newCapacity);
      min[d] = Arrays.copyOf(min[d], newCapacity);
      effMax[d] = Arrays.copyOf(effMax[d], newCapacity);
      floor[d] = Arrays.copyOf(floor[d], newCapacity);
      weight[d] = Arrays.copyOf(weight[d], newCapacity);
      request[d] = Arrays.copyOf(request[d], newCapacity);
      limited[d] = Arrays.copyOf(limited[d], newCapacity);
      used[d] = Arrays.copyOf(used[d], newCapacity);
      npRequest[d] = Arrays.copyOf(npRequest[d], newCapacity);
      npUsed[d] = Arrays.copyOf(npUsed[d], newCapacity);
      scaledMin[d] = Arrays.copyOf(scaledMin[d], newCapacity);
      runtime[d] = Arrays.copyOf(runtime[d], newCapacity);
      guaranteed[d] = Arrays.copyOf(guaranteed[d], newCapacity);
    }
    ownRequest.ensure(tracked.length, newCapacity);
    ownUsed.ensure(tracked.length, newCapacity);
    ownNpRequest.ensure(tracked.length, newCapacity);
    ownNpUsed.ensure(tracked.length, newCapacity);
    capacity = newCapacity;
  }
}
