package io.quotaflow.tree;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The quota state of one cluster, updated event by event: its groups, pods and nodes, and the last
 * computed result. {@code put}/{@code remove} methods only record what changed; {@link
 * #recompute()} brings every runtime to the fixed point of SPEC 7 and returns exactly what changed.
 *
 * <p>Only the affected part of the tree is recomputed: a pod event updates its group's exact sums,
 * the aggregates go up only while they change, a parent redistributes among all its children when
 * one child's limited request (or min, or weight) changed, and the distribution goes down only
 * where a child's runtime changed. A change of the tree's shape (a group added, removed, moved, or
 * made valid or invalid) recomputes every aggregate and distribution, still reporting only the
 * groups whose status changed. The result always equals {@link QuotaCalculator#compute} on the same
 * inputs with the previous snapshot.
 *
 * <p>One instance per cluster, owned by one thread; not thread-safe. Deterministic: no clock, no
 * randomness, and no dependence on the order in which inputs arrived.
 */
public final class ClusterQuotaState {

  private static final int[] NO_CHILDREN = new int[0];

  // Which parts of a group's status changed since it was last built; the rest is reused.
  private static final int F_REQUEST = 1;
  private static final int F_LIMITED = 2;
  private static final int F_USED = 4;
  private static final int F_NP_REQUEST = 8;
  private static final int F_NP_USED = 16;
  private static final int F_SCALED = 32;
  private static final int F_RUNTIME = 64;
  private static final int F_ALL = 128;

  private final QuotaOptions options;
  private final GroupTable t = new GroupTable(64);
  private final GroupDirectory directory = new GroupDirectory();
  private final WaterFill fill = new WaterFill();

  private final Map<PodRef, PodEntry> pods = new HashMap<>();
  private final Map<String, Set<PodEntry>> podsByNamespace = new HashMap<>();
  private final Map<String, Set<PodEntry>> podsByLabel = new HashMap<>();
  private final List<PodEntry> pendingPods = new ArrayList<>();
  private final Map<PodRef, PodAssignment> removedPods = new HashMap<>();

  private final Map<String, QuotaNode> nodes = new HashMap<>();
  private final Map<String, ResourceList> countedAllocatable = new HashMap<>();
  private final ExactSums total = new ExactSums(1);
  private int[] nodeDimCount = new int[0];
  private long[] rootAvailable = new long[0];
  private ResourceList lastTotal = ResourceList.empty();

  private final Map<String, GroupStatus> removedGroups = new HashMap<>();

  /** Every slot by group name: children lists come out sorted without sorting each one. */
  private final TreeMap<String, Integer> slotsByName = new TreeMap<>();

  private int[] changedFields = new int[64];

  private boolean structureDirty = true;

  /** Recompute every aggregate and distribution, not only the dirty ones. */
  private boolean fullPass = true;

  private boolean totalDirty = true;
  private boolean[] rootDims = new boolean[0];

  // Work lists (flags live in the table).
  private IntList[] aggBuckets = new IntList[0];
  private IntList[] distBuckets = new IntList[0];
  private final IntList unattachedAgg = new IntList();
  private final IntList statusList = new IntList();
  private final IntList podsList = new IntList();

  // Structure derived from the specs.
  private int[] order = new int[0];
  private int[] unattached = new int[0];

  /** Each group's position in snapshot order. */
  private int[] rank = new int[0];

  /** Per slot: a normal, valid group in the tree (see {@link #participates}). */
  private boolean[] participating = new boolean[0];

  private int maxDepth;

  // Scratch for one distribution.
  private int[] bufIndex = new int[16];
  private long[] bufRequest = new long[16];
  private long[] bufMin = new long[16];
  private long[] bufWeight = new long[16];
  private long[] bufScaled = new long[16];
  private long[] bufRuntime = new long[16];

  public ClusterQuotaState(QuotaOptions options) {
    this.options = Objects.requireNonNull(options, "options");
    setUpFixedSlot(GroupTable.ROOT, SpecialGroups.ROOT);
    setUpFixedSlot(GroupTable.SYSTEM, SpecialGroups.SYSTEM);
    setUpFixedSlot(GroupTable.DEFAULT, SpecialGroups.DEFAULT);
    t.index.put(SpecialGroups.SYSTEM, GroupTable.SYSTEM);
    t.index.put(SpecialGroups.DEFAULT, GroupTable.DEFAULT);
    GroupRules.apply(
        t,
        GroupTable.ROOT,
        QuotaGroup.builder(SpecialGroups.ROOT).parentGroup(true).build(),
        options);
    GroupRules.apply(
        t, GroupTable.SYSTEM, GroupRules.implicitSpec(SpecialGroups.SYSTEM, options), options);
    GroupRules.apply(
        t, GroupTable.DEFAULT, GroupRules.implicitSpec(SpecialGroups.DEFAULT, options), options);
  }

  private void setUpFixedSlot(int slot, String name) {
    t.name[slot] = name;
    t.present[slot] = true;
    t.pods[slot] = new java.util.HashSet<>();
    slotsByName.put(name, slot);
    markStatus(slot, F_ALL);
  }

  /**
   * A state holding {@code inputs} whose last result is {@code previous} (e.g. read back from a
   * store after a restart): invalid groups keep the runtimes {@code previous} gives them, and the
   * first {@link #recompute()} reports what differs from {@code previous}.
   */
  public static ClusterQuotaState restore(
      QuotaOptions options, ClusterInputs inputs, TreeSnapshot previous) {
    final ClusterQuotaState state = new ClusterQuotaState(options);
    inputs.groups().forEach(state::putGroup);
    inputs.pods().forEach(state::putPod);
    inputs.nodes().forEach(state::putNode);
    for (final GroupStatus status : previous.groups()) {
      final Integer slot = state.t.index.get(status.name());
      if (SpecialGroups.ROOT.equals(status.name())) {
        state.t.status[GroupTable.ROOT] = status;
      } else if (slot != null) {
        state.t.status[slot] = status;
      } else {
        state.removedGroups.put(status.name(), status);
      }
    }
    for (final PodAssignment assignment : previous.pods()) {
      final PodEntry entry = state.pods.get(assignment.ref());
      if (entry != null) {
        entry.emitted = assignment;
      } else {
        state.removedPods.put(assignment.ref(), assignment);
      }
    }
    return state;
  }

  public QuotaOptions options() {
    return options;
  }

  // ---------------------------------------------------------------------------------------------
  // Input events

  /** Adds or replaces a group. An object named like the root is ignored: the root is virtual. */
  public void putGroup(QuotaGroup group) {
    final String name = group.name();
    if (SpecialGroups.ROOT.equals(name)) {
      return;
    }
    final Integer existing = t.index.get(name);
    if (existing != null && t.spec[existing].equals(group)) {
      return;
    }
    final int slot;
    final QuotaGroup old;
    if (existing == null) {
      slot = t.allocate(name);
      slotsByName.put(name, slot);
      t.status[slot] = removedGroups.remove(name);
      old = null;
    } else {
      slot = existing;
      old = t.spec[slot];
    }
    final String oldProblem = t.localProblem[slot];
    GroupRules.apply(t, slot, group, options);
    directory.put(group);
    markStatus(slot, F_ALL);
    markPods(slot);
    t.warning[slot] = GroupRules.warning(group).orElse(null);
    t.localProblem[slot] = GroupRules.localProblem(group).orElse(null);
    if (old == null
        || !t.isNormal(slot)
        || isStructural(old, group)
        || !Objects.equals(oldProblem, t.localProblem[slot])) {
      structureDirty = true;
      remapAffected(name, old, group);
      return;
    }
    markAgg(slot);
    if (t.attached[slot] && t.valid[slot]) {
      markDist(t.parent[slot]);
    }
  }

  private static boolean isStructural(QuotaGroup old, QuotaGroup group) {
    return !old.parent().equals(group.parent())
        || old.parentGroup() != group.parentGroup()
        || !old.namespaces().equals(group.namespaces())
        || !GroupRules.trackedDimensions(old).equals(GroupRules.trackedDimensions(group));
  }

  /** Removes a group; the special groups fall back to their built-in spec. */
  public void removeGroup(String name) {
    final Integer existing = t.index.get(name);
    if (existing == null) {
      return;
    }
    final int slot = existing;
    final QuotaGroup old = t.spec[slot];
    structureDirty = true;
    if (!t.isNormal(slot)) {
      final QuotaGroup implicit = GroupRules.implicitSpec(name, options);
      if (old.equals(implicit)) {
        return;
      }
      directory.remove(name);
      GroupRules.apply(t, slot, implicit, options);
      t.warning[slot] = null;
      t.localProblem[slot] = null;
      markStatus(slot, F_ALL);
      markPods(slot);
      remapAffected(name, old, implicit);
      return;
    }
    directory.remove(name);
    for (final String dimension : GroupRules.trackedDimensions(old)) {
      t.trackCount[t.dims.id(dimension)]--;
    }
    if (t.status[slot] != null) {
      removedGroups.put(name, t.status[slot]);
    }
    remapAffected(name, old, null);
    slotsByName.remove(name);
    t.release(slot);
  }

  /** Adds or replaces a pod. */
  public void putPod(QuotaPod pod) {
    PodEntry entry = pods.get(pod.ref());
    if (entry != null && entry.pod.equals(pod)) {
      return;
    }
    if (entry == null) {
      entry = new PodEntry(pod);
      entry.emitted = removedPods.remove(pod.ref());
      pods.put(pod.ref(), entry);
    } else {
      uncharge(entry);
      unindex(entry);
      entry.pod = pod;
    }
    measure(entry);
    resolve(entry);
    charge(entry);
    index(entry);
    markPending(entry);
  }

  public void removePod(PodRef ref) {
    final PodEntry entry = pods.remove(ref);
    if (entry == null) {
      return;
    }
    entry.removed = true;
    uncharge(entry);
    unindex(entry);
    if (entry.emitted != null) {
      removedPods.put(ref, entry.emitted);
    }
  }

  /** Adds or replaces a node. */
  public void putNode(QuotaNode node) {
    final QuotaNode old = nodes.put(node.name(), node);
    if (node.equals(old)) {
      return;
    }
    uncount(node.name());
    if (!node.deleting()
        && (!options.onlyReadySchedulableNodes() || (node.ready() && node.schedulable()))) {
      final ResourceList allocatable =
          PodAccounting.derive(node.allocatable(), options.derivedResources());
      countedAllocatable.put(node.name(), allocatable);
      allocatable.asMap().forEach((dimension, amount) -> t.dims.intern(dimension));
      syncDimensions();
      allocatable
          .asMap()
          .forEach(
              (dimension, amount) -> {
                final int d = t.dims.id(dimension);
                total.add(d, 0, amount);
                nodeDimCount[d]++;
              });
    }
    totalDirty = true;
  }

  public void removeNode(String name) {
    if (nodes.remove(name) != null) {
      uncount(name);
      totalDirty = true;
    }
  }

  private void uncount(String name) {
    final ResourceList old = countedAllocatable.remove(name);
    if (old != null) {
      old.asMap()
          .forEach(
              (dimension, amount) -> {
                final int d = t.dims.id(dimension);
                total.subtract(d, 0, amount);
                nodeDimCount[d]--;
              });
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Queries

  public Optional<GroupStatus> group(String name) {
    if (SpecialGroups.ROOT.equals(name)) {
      return Optional.ofNullable(t.status[GroupTable.ROOT]);
    }
    final Integer slot = t.index.get(name);
    return slot == null ? Optional.empty() : Optional.ofNullable(t.status[slot]);
  }

  public Optional<PodAssignment> pod(PodRef ref) {
    final PodEntry entry = pods.get(ref);
    return entry == null ? Optional.empty() : Optional.ofNullable(entry.emitted);
  }

  /** The pods charged to a group (not those resolving to it with a problem), in no order. */
  public List<QuotaPod> podsOf(String group) {
    final Integer slot = t.index.get(group);
    if (slot == null) {
      return List.of();
    }
    final List<QuotaPod> result = new ArrayList<>(t.pods[slot].size());
    for (final PodEntry entry : t.pods[slot]) {
      result.add(entry.pod);
    }
    return result;
  }

  /** The current inputs, e.g. for a full recomputation to compare with. */
  public ClusterInputs inputs() {
    final List<QuotaGroup> groups = new ArrayList<>();
    for (int g = GroupTable.DEFAULT + 1; g < t.limit; g++) {
      if (t.present[g]) {
        groups.add(t.spec[g]);
      }
    }
    for (final int g : new int[] {GroupTable.SYSTEM, GroupTable.DEFAULT}) {
      if (!t.spec[g].equals(GroupRules.implicitSpec(t.name[g], options))) {
        groups.add(t.spec[g]);
      }
    }
    final List<QuotaPod> podList = new ArrayList<>(pods.size());
    pods.values().forEach(entry -> podList.add(entry.pod));
    return new ClusterInputs(groups, podList, new ArrayList<>(nodes.values()));
  }

  /**
   * The full result as of the last {@link #recompute()}: groups in tree order (root first, then
   * depth first with siblings by name, then groups outside the tree by name), pods by reference.
   */
  public TreeSnapshot snapshot() {
    final List<GroupStatus> groups = new ArrayList<>();
    appendDepthFirst(GroupTable.ROOT, groups);
    for (final int g : unattached) {
      if (t.status[g] != null) {
        groups.add(t.status[g]);
      }
    }
    final List<PodAssignment> assignments = new ArrayList<>(pods.size());
    for (final PodEntry entry : pods.values()) {
      if (entry.emitted != null) {
        assignments.add(entry.emitted);
      }
    }
    assignments.sort(Comparator.comparing(PodAssignment::ref));
    return new TreeSnapshot(lastTotal, groups, assignments);
  }

  private void appendDepthFirst(int root, List<GroupStatus> out) {
    final ArrayList<Integer> stack = new ArrayList<>();
    stack.add(root);
    while (!stack.isEmpty()) {
      final int g = stack.remove(stack.size() - 1);
      if (t.status[g] != null) {
        out.add(t.status[g]);
      }
      final int[] kids = t.children[g];
      for (int i = kids.length - 1; i >= 0; i--) {
        stack.add(kids[i]);
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Recomputation

  /** Brings every result up to date with the inputs and returns what changed. */
  public TreeDelta recompute() {
    syncDimensions();
    if (structureDirty) {
      rebuildStructure();
      structureDirty = false;
      fullPass = true;
    }
    if (totalDirty) {
      lastTotal = clusterTotal();
      markDist(GroupTable.ROOT);
      markPods(GroupTable.SYSTEM);
      markPods(GroupTable.DEFAULT);
      totalDirty = false;
    }
    refreshRootDims();
    if (fullPass) {
      aggregateAll();
      distributeAll();
      fullPass = false;
    } else {
      aggregateUp();
      distributeDown();
    }
    classifyPods();
    return emit();
  }

  /**
   * Recomputes every aggregate and every runtime as if every pod and spec had changed (the tree's
   * shape is rebuilt only if it changed), and returns what changed: nothing, if the state was up to
   * date. For verification and benchmarks; {@link #recompute()} is always enough.
   */
  public TreeDelta recomputeAll() {
    fullPass = true;
    return recompute();
  }

  private void syncDimensions() {
    t.syncDimensions();
    final int count = t.dims.count();
    if (nodeDimCount.length < count) {
      nodeDimCount = java.util.Arrays.copyOf(nodeDimCount, count);
      rootAvailable = java.util.Arrays.copyOf(rootAvailable, count);
      rootDims = java.util.Arrays.copyOf(rootDims, count);
      total.ensure(count, 1);
    }
  }

  private ResourceList clusterTotal() {
    final Map<String, Long> amounts = new TreeMap<>();
    for (int d = 0; d < t.dims.count(); d++) {
      if (nodeDimCount[d] > 0) {
        amounts.put(t.dims.name(d), total.get(d, 0));
      }
    }
    return ResourceList.of(amounts);
  }

  /** The dimensions the root reports: those of the nodes and those any group tracks. */
  private void refreshRootDims() {
    boolean changed = false;
    for (int d = 0; d < t.dims.count(); d++) {
      final boolean reported = nodeDimCount[d] > 0 || t.trackCount[d] > 0;
      if (rootDims[d] != reported) {
        rootDims[d] = reported;
        changed = true;
      }
    }
    if (changed) {
      markStatus(GroupTable.ROOT, F_ALL);
      markStatus(GroupTable.SYSTEM, F_ALL);
      markStatus(GroupTable.DEFAULT, F_ALL);
      markPods(GroupTable.SYSTEM);
      markPods(GroupTable.DEFAULT);
    }
  }

  // --- Structure --------------------------------------------------------------------------------

  private static final byte UNSEEN = 0;
  private static final byte ON_PATH = 1;
  private static final byte DONE = 2;

  /** Parents, children, depth and validity of every group from the specs (SPEC 9). */
  private void rebuildStructure() {
    final int n = t.limit;
    final int[] parent = new int[n];
    final String[] problem = new String[n];
    final boolean[] attached = new boolean[n];
    final String[] reason = new String[n];
    final int[] owner = new int[n];
    java.util.Arrays.fill(parent, -1);
    java.util.Arrays.fill(owner, -1);
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
        problem[g] = "parent " + parentName + " is not a parent group (is-parent is not \"true\")";
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
    // Children lists in name order (ties in the split go to names in ascending order): filled
    // from the slots in name order, so no list needs sorting.
    final int[] byName = new int[slotsByName.size()];
    int k = 0;
    for (final int g : slotsByName.values()) {
      byName[k++] = g;
    }
    final int[] childCount = new int[n];
    for (final int g : byName) {
      if (g != GroupTable.ROOT && attached[g]) {
        childCount[parent[g]]++;
      }
    }
    final int[][] children = new int[n][];
    for (int g = 0; g < n; g++) {
      children[g] = childCount[g] == 0 ? NO_CHILDREN : new int[childCount[g]];
      childCount[g] = 0;
    }
    for (final int g : byName) {
      if (g != GroupTable.ROOT && attached[g]) {
        children[parent[g]][childCount[parent[g]]++] = g;
      }
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
    for (final int g : byName) {
      if (!attached[g]) {
        outside.add(g);
        depth[g] = -1;
      }
    }
    // Publish, noting what changed for the statuses.
    for (int g = 0; g < n; g++) {
      if (!t.present[g]) {
        continue;
      }
      final boolean isParent = g == GroupTable.ROOT || (t.isNormal(g) && t.spec[g].parentGroup());
      if (t.parent[g] != parent[g]
          || t.attached[g] != attached[g]
          || t.valid[g] != valid[g]
          || !Objects.equals(t.reason[g], reason[g])
          || t.isParent[g] != isParent) {
        markStatus(g, F_ALL);
      }
      if (!valid[g]) {
        if (t.frozen[g] == null) {
          // Invalid from now on: keep the runtime last handed out (none for a new group).
          t.frozen[g] = t.status[g] == null ? ResourceList.empty() : t.status[g].runtime();
        }
      } else {
        t.frozen[g] = null;
      }
      t.parent[g] = parent[g];
      t.attached[g] = attached[g];
      t.valid[g] = valid[g];
      t.reason[g] = reason[g];
      t.isParent[g] = isParent;
      t.children[g] = children[g];
      t.depth[g] = depth[g];
    }
    participating = new boolean[t.capacity];
    for (int g = GroupTable.DEFAULT + 1; g < n; g++) {
      participating[g] = t.present[g] && valid[g] && attached[g];
    }
    order = bfs.toArray();
    unattached = outside.toArray();
    maxDepth = deepest;
    rank = new int[n];
    int position = 0;
    final IntList stack = new IntList();
    stack.add(GroupTable.ROOT);
    while (stack.size() > 0) {
      final int g = stack.pop();
      rank[g] = position++;
      for (int i = t.children[g].length - 1; i >= 0; i--) {
        stack.add(t.children[g][i]);
      }
    }
    for (final int g : unattached) {
      rank[g] = position++;
    }
    if (aggBuckets.length < maxDepth + 1) {
      aggBuckets = newBuckets(maxDepth + 1);
      distBuckets = newBuckets(maxDepth + 1);
    }
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

  private static IntList[] newBuckets(int size) {
    final IntList[] buckets = new IntList[size];
    for (int i = 0; i < size; i++) {
      buckets[i] = new IntList();
    }
    return buckets;
  }

  /**
   * Every aggregate, children before parents, one dimension at a time so that the loop keeps its
   * columns in registers; the dirty lists are dropped.
   */
  private void aggregateAll() {
    clearWorkLists();
    final int count = t.dims.count();
    for (int d = 0; d < count; d++) {
      for (final int g : unattached) {
        aggregateColumn(g, d);
      }
      for (int i = order.length - 1; i >= 0; i--) {
        aggregateColumn(order[i], d);
      }
    }
  }

  /** {@link #aggregate} for one dimension. */
  private void aggregateColumn(int g, int d) {
    final boolean[] tracked = t.tracked[d];
    if (!tracked[g]) {
      return;
    }
    final long[] limitedColumn = t.limited[d];
    final long[] usedColumn = t.used[d];
    final long[] npRequestColumn = t.npRequest[d];
    final long[] npUsedColumn = t.npUsed[d];
    long request = t.ownRequest.column(d)[g];
    long used = t.ownUsed.column(d)[g];
    long npRequest = t.ownNpRequest.column(d)[g];
    long npUsed = t.ownNpUsed.column(d)[g];
    final int[] kids = t.children[g];
    if (kids.length > 0) {
      final boolean[] valid = t.valid;
      final boolean validGroup = valid[g];
      for (final int c : kids) {
        if (tracked[c]) {
          if (valid[c] || !validGroup) {
            request = Arith.add(request, limitedColumn[c]);
          }
          used = Arith.add(used, usedColumn[c]);
          npRequest = Arith.add(npRequest, npRequestColumn[c]);
          npUsed = Arith.add(npUsed, npUsedColumn[c]);
        }
      }
    }
    request = Math.max(request, t.floor[d][g]);
    final long limited = Math.min(request, t.effMax[d][g]);
    int fields = 0;
    final long[] requestColumn = t.request[d];
    if (requestColumn[g] != request) {
      requestColumn[g] = request;
      fields |= F_REQUEST;
    }
    if (limitedColumn[g] != limited) {
      limitedColumn[g] = limited;
      fields |= F_LIMITED;
    }
    if (usedColumn[g] != used) {
      usedColumn[g] = used;
      fields |= F_USED;
    }
    if (npRequestColumn[g] != npRequest) {
      npRequestColumn[g] = npRequest;
      fields |= F_NP_REQUEST;
    }
    if (npUsedColumn[g] != npUsed) {
      npUsedColumn[g] = npUsed;
      fields |= F_NP_USED;
    }
    if (fields != 0) {
      markStatus(g, fields);
    }
  }

  /** Every distribution, parents before children, one dimension at a time. */
  private void distributeAll() {
    refreshRootAvailable();
    final int count = t.dims.count();
    for (int d = 0; d < count; d++) {
      for (final int p : order) {
        if (t.isParent[p] && t.valid[p]) {
          ensureBuffers(t.children[p].length);
          distributeDimension(p, d);
        }
      }
    }
    distributeToSpecialGroups();
    clearWorkLists();
  }

  private void clearWorkLists() {
    for (final IntList bucket : aggBuckets) {
      bucket.clear();
    }
    for (final IntList bucket : distBuckets) {
      bucket.clear();
    }
    unattachedAgg.clear();
    java.util.Arrays.fill(t.aggDirty, false);
    java.util.Arrays.fill(t.distDirty, false);
  }

  // --- Marks ------------------------------------------------------------------------------------

  private void markAgg(int g) {
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

  private void markDist(int g) {
    if (t.distDirty[g] || g < 0) {
      return;
    }
    t.distDirty[g] = true;
    if (!structureDirty && !fullPass && t.attached[g]) {
      distBuckets[t.depth[g]].add(g);
    }
  }

  private void markStatus(int g, int fields) {
    if (changedFields.length < t.capacity) {
      changedFields = java.util.Arrays.copyOf(changedFields, t.capacity);
    }
    changedFields[g] |= fields;
    if (!t.statusDirty[g]) {
      t.statusDirty[g] = true;
      statusList.add(g);
    }
  }

  private void markPods(int g) {
    if (!t.podsDirty[g]) {
      t.podsDirty[g] = true;
      podsList.add(g);
    }
  }

  private void markPending(PodEntry entry) {
    if (!entry.pending) {
      entry.pending = true;
      pendingPods.add(entry);
    }
  }

  // --- Up the tree (SPEC 6) ---------------------------------------------------------------------

  private void aggregateUp() {
    for (int i = 0; i < unattachedAgg.size(); i++) {
      final int g = unattachedAgg.get(i);
      if (t.present[g]) {
        aggregate(g);
      }
      t.aggDirty[g] = false;
    }
    unattachedAgg.clear();
    for (int depth = aggBuckets.length - 1; depth >= 0; depth--) {
      final IntList bucket = aggBuckets[depth];
      for (int i = 0; i < bucket.size(); i++) {
        final int g = bucket.get(i);
        if (!t.present[g] || !t.aggDirty[g]) {
          continue;
        }
        t.aggDirty[g] = false;
        final int changes = aggregate(g);
        if (changes != 0 && g != GroupTable.ROOT) {
          markAgg(t.parent[g]);
          if ((changes & LIMITED_CHANGED) != 0 && participates(g)) {
            markDist(t.parent[g]);
          }
        }
      }
      bucket.clear();
    }
  }

  private static final int LIMITED_CHANGED = 1;
  private static final int SUMS_CHANGED = 2;

  /** A normal, valid group in the tree: one that takes part in its parent's distribution. */
  private boolean participates(int g) {
    return participating[g];
  }

  /** Recomputes one group's request, limited request and sums from its pods and children. */
  private int aggregate(int g) {
    int changes = 0;
    int fields = 0;
    final int[] kids = t.children[g];
    final boolean validGroup = t.valid[g];
    final int count = t.dims.count();
    for (int d = 0; d < count; d++) {
      final boolean[] tracked = t.tracked[d];
      if (!tracked[g]) {
        continue;
      }
      long request = t.ownRequest.get(d, g);
      long used = t.ownUsed.get(d, g);
      long npRequest = t.ownNpRequest.get(d, g);
      long npUsed = t.ownNpUsed.get(d, g);
      final long[] limitedColumn = t.limited[d];
      final long[] usedColumn = t.used[d];
      final long[] npRequestColumn = t.npRequest[d];
      final long[] npUsedColumn = t.npUsed[d];
      for (final int c : kids) {
        if (!tracked[c]) {
          continue;
        }
        // A valid parent asks only for its valid children; used and the non-preemptible sums
        // are physical and add up raw.
        if (t.valid[c] || !validGroup) {
          request = Arith.add(request, limitedColumn[c]);
        }
        used = Arith.add(used, usedColumn[c]);
        npRequest = Arith.add(npRequest, npRequestColumn[c]);
        npUsed = Arith.add(npUsed, npUsedColumn[c]);
      }
      request = Math.max(request, t.floor[d][g]);
      final long limited = Math.min(request, t.effMax[d][g]);
      if (t.request[d][g] != request) {
        t.request[d][g] = request;
        fields |= F_REQUEST;
      }
      if (limitedColumn[g] != limited) {
        limitedColumn[g] = limited;
        changes |= LIMITED_CHANGED;
        fields |= F_LIMITED;
      }
      if (usedColumn[g] != used) {
        usedColumn[g] = used;
        changes |= SUMS_CHANGED;
        fields |= F_USED;
      }
      if (npRequestColumn[g] != npRequest) {
        npRequestColumn[g] = npRequest;
        changes |= SUMS_CHANGED;
        fields |= F_NP_REQUEST;
      }
      if (npUsedColumn[g] != npUsed) {
        npUsedColumn[g] = npUsed;
        changes |= SUMS_CHANGED;
        fields |= F_NP_USED;
      }
    }
    if (fields != 0) {
      markStatus(g, fields);
    }
    return changes;
  }

  // --- Down the tree (SPEC 7, 8) ----------------------------------------------------------------

  private void distributeDown() {
    refreshRootAvailable();
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

  /** The root distributes the cluster total minus what the system and default groups use. */
  private void refreshRootAvailable() {
    final int count = t.dims.count();
    boolean changed = false;
    for (int d = 0; d < count; d++) {
      final long carved = Arith.add(t.used[d][GroupTable.SYSTEM], t.used[d][GroupTable.DEFAULT]);
      final long available = Math.max(0L, total.get(d, 0) - carved);
      if (rootAvailable[d] != available) {
        rootAvailable[d] = available;
        changed = true;
      }
      if (t.runtime[d][GroupTable.ROOT] != available) {
        t.runtime[d][GroupTable.ROOT] = available;
        changed = true;
      }
    }
    if (changed) {
      markDist(GroupTable.ROOT);
      markStatus(GroupTable.ROOT, F_RUNTIME);
    }
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
    final long[] limitedColumn = t.limited[d];
    final long[] minColumn = t.min[d];
    final long[] weightColumn = t.weight[d];
    int n = 0;
    for (final int c : t.children[p]) {
      if (tracked[c] && participating[c]) {
        bufIndex[n] = c;
        bufRequest[n] = limitedColumn[c];
        bufMin[n] = minColumn[c];
        bufWeight[n] = weightColumn[c];
        n++;
      }
    }
    if (n == 0) {
      return;
    }
    fill.distribute(
        available,
        unbounded,
        n,
        bufRequest,
        bufMin,
        bufWeight,
        options.minScaling(),
        bufScaled,
        bufRuntime);
    final long[] scaledColumn = t.scaledMin[d];
    final long[] runtimeColumn = t.runtime[d];
    for (int i = 0; i < n; i++) {
      final int c = bufIndex[i];
      if (scaledColumn[c] != bufScaled[i]) {
        scaledColumn[c] = bufScaled[i];
        markStatus(c, F_SCALED);
      }
      if (runtimeColumn[c] != bufRuntime[i]) {
        runtimeColumn[c] = bufRuntime[i];
        markStatus(c, F_RUNTIME);
        if (t.isParent[c]) {
          markDist(c);
        }
      }
    }
  }

  /** The system group may use the whole cluster; the default group is bounded by its max. */
  private void distributeToSpecialGroups() {
    final int count = t.dims.count();
    for (final int s : new int[] {GroupTable.SYSTEM, GroupTable.DEFAULT}) {
      for (int d = 0; d < count; d++) {
        final long runtime = Math.min(total.get(d, 0), t.effMax[d][s]);
        if (t.runtime[d][s] != runtime) {
          t.runtime[d][s] = runtime;
          markStatus(s, F_RUNTIME);
        }
        if (t.scaledMin[d][s] != t.min[d][s]) {
          t.scaledMin[d][s] = t.min[d][s];
          markStatus(s, F_SCALED);
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
    }
  }

  // --- Pods -------------------------------------------------------------------------------------

  private void measure(PodEntry entry) {
    final ResourceList request = PodAccounting.effectiveRequest(entry.pod, options);
    final int size = request.asMap().size();
    entry.dimensions = new int[size];
    entry.amounts = new long[size];
    int i = 0;
    for (final Map.Entry<String, Long> amount : request.asMap().entrySet()) {
      entry.dimensions[i] = t.dims.intern(amount.getKey());
      entry.amounts[i] = amount.getValue();
      i++;
    }
    syncDimensions();
    entry.countsRequest = PodAccounting.countsAsRequest(entry.pod, options);
    entry.countsUsed = PodAccounting.countsAsUsed(entry.pod, options);
    entry.nonPreemptible = !entry.pod.preemptible();
  }

  private void resolve(PodEntry entry) {
    final GroupDirectory.Target target = directory.resolve(entry.pod);
    entry.groupName = target.group();
    entry.problem = target.problem().orElse(null);
    entry.group = entry.problem == null ? t.index.get(target.group()) : -1;
  }

  private void charge(PodEntry entry) {
    final int g = entry.group;
    if (g < 0) {
      return;
    }
    t.pods[g].add(entry);
    if (entry.countsRequest) {
      for (int i = 0; i < entry.dimensions.length; i++) {
        final int d = entry.dimensions[i];
        final long amount = entry.amounts[i];
        t.ownRequest.add(d, g, amount);
        if (entry.countsUsed) {
          t.ownUsed.add(d, g, amount);
        }
        if (entry.nonPreemptible) {
          t.ownNpRequest.add(d, g, amount);
          if (entry.countsUsed) {
            t.ownNpUsed.add(d, g, amount);
          }
        }
      }
      markAgg(g);
    }
    markPods(g);
  }

  private void uncharge(PodEntry entry) {
    final int g = entry.group;
    entry.podClass = null;
    if (g < 0) {
      return;
    }
    t.pods[g].remove(entry);
    if (entry.countsRequest) {
      for (int i = 0; i < entry.dimensions.length; i++) {
        final int d = entry.dimensions[i];
        final long amount = entry.amounts[i];
        t.ownRequest.subtract(d, g, amount);
        if (entry.countsUsed) {
          t.ownUsed.subtract(d, g, amount);
        }
        if (entry.nonPreemptible) {
          t.ownNpRequest.subtract(d, g, amount);
          if (entry.countsUsed) {
            t.ownNpUsed.subtract(d, g, amount);
          }
        }
      }
      markAgg(g);
    }
    markPods(g);
    entry.group = -1;
  }

  private void index(PodEntry entry) {
    podsByNamespace.computeIfAbsent(entry.pod.ref().namespace(), n -> identitySet()).add(entry);
    entry
        .pod
        .quotaName()
        .ifPresent(label -> podsByLabel.computeIfAbsent(label, n -> identitySet()).add(entry));
  }

  private void unindex(PodEntry entry) {
    removeFrom(podsByNamespace, entry.pod.ref().namespace(), entry);
    entry.pod.quotaName().ifPresent(label -> removeFrom(podsByLabel, label, entry));
  }

  private static Set<PodEntry> identitySet() {
    return Collections.newSetFromMap(new IdentityHashMap<>());
  }

  private static void removeFrom(Map<String, Set<PodEntry>> index, String key, PodEntry entry) {
    final Set<PodEntry> set = index.get(key);
    if (set != null) {
      set.remove(entry);
      if (set.isEmpty()) {
        index.remove(key);
      }
    }
  }

  /** Re-resolves the pods whose group may change with group {@code name}'s spec. */
  private void remapAffected(String name, QuotaGroup old, QuotaGroup group) {
    final Set<PodEntry> affected = identitySet();
    addAll(affected, podsByLabel.get(name));
    addAll(affected, podsByNamespace.get(name));
    for (final QuotaGroup spec : new QuotaGroup[] {old, group}) {
      if (spec != null) {
        for (final String namespace : spec.namespaces()) {
          addAll(affected, podsByNamespace.get(namespace));
        }
      }
    }
    final Integer slot = t.index.get(name);
    if (slot != null) {
      addAll(affected, t.pods[slot]);
    }
    for (final PodEntry entry : affected) {
      final int before = entry.group;
      final String beforeName = entry.groupName;
      final String beforeProblem = entry.problem;
      final GroupDirectory.Target target = directory.resolve(entry.pod);
      final Integer after =
          target.problem().isPresent() ? Integer.valueOf(-1) : t.index.get(target.group());
      if (before == after
          && beforeName.equals(target.group())
          && Objects.equals(beforeProblem, target.problem().orElse(null))) {
        continue;
      }
      uncharge(entry);
      resolve(entry);
      charge(entry);
      markPending(entry);
    }
  }

  private static void addAll(Set<PodEntry> into, Set<PodEntry> from) {
    if (from != null) {
      into.addAll(from);
    }
  }

  /** Classes the used pods of every group whose pods or min changed (SPEC 12). */
  private void classifyPods() {
    for (int i = 0; i < podsList.size(); i++) {
      final int g = podsList.get(i);
      t.podsDirty[g] = false;
      if (t.present[g]) {
        PodClassifier.classify(g, t.pods[g], reportedDimensions(g), t, this::markPending);
      }
    }
    podsList.clear();
  }

  // --- Output -----------------------------------------------------------------------------------

  private TreeDelta emit() {
    final List<GroupStatus> changed = new ArrayList<>();
    final int[] dirty = statusList.toArray();
    sortByRank(dirty);
    for (final int g : dirty) {
      t.statusDirty[g] = false;
      final int fields = changedFields[g];
      changedFields[g] = 0;
      if (!t.present[g]) {
        continue;
      }
      final GroupStatus status = materialize(g, fields);
      if (!status.equals(t.status[g])) {
        t.status[g] = status;
        changed.add(status);
      }
    }
    statusList.clear();
    if (changed.size() > 1) {
      changed.sort(
          Comparator.comparingInt(s -> rank[t.index.getOrDefault(s.name(), GroupTable.ROOT)]));
    }
    final List<String> removed = new ArrayList<>(removedGroups.keySet());
    Collections.sort(removed);
    removedGroups.clear();

    final List<PodAssignment> changedPods = new ArrayList<>();
    for (final PodEntry entry : pendingPods) {
      entry.pending = false;
      if (entry.removed) {
        continue;
      }
      final PodAssignment assignment =
          new PodAssignment(
              entry.pod.ref(),
              entry.groupName,
              Optional.ofNullable(entry.podClass),
              Optional.ofNullable(entry.problem));
      if (!assignment.equals(entry.emitted)) {
        entry.emitted = assignment;
        changedPods.add(assignment);
      }
    }
    pendingPods.clear();
    changedPods.sort(Comparator.comparing(PodAssignment::ref));
    final List<PodRef> gone = new ArrayList<>(removedPods.keySet());
    Collections.sort(gone);
    removedPods.clear();
    return new TreeDelta(lastTotal, changed, removed, changedPods, gone);
  }

  /** Sorts slots into snapshot order (slots of removed groups last). */
  private void sortByRank(int[] slots) {
    if (slots.length < 2) {
      return;
    }
    final long[] keyed = new long[slots.length];
    for (int i = 0; i < slots.length; i++) {
      final int g = slots[i];
      final long position = g < rank.length && t.present[g] ? rank[g] : Integer.MAX_VALUE;
      keyed[i] = position << 32 | g;
    }
    java.util.Arrays.sort(keyed);
    for (int i = 0; i < slots.length; i++) {
      slots[i] = (int) keyed[i];
    }
  }

  /** The dimension ids a group's status lists, by name. */
  int[] reportedDimensions(int g) {
    final int[] sorted = t.dims.sortedIds();
    final IntList result = new IntList();
    final boolean normal = t.isNormal(g);
    final QuotaGroup spec = t.spec[g];
    for (final int d : sorted) {
      final boolean reported;
      if (normal) {
        reported = t.tracked[d][g];
      } else if (g == GroupTable.ROOT) {
        reported = rootDims[d];
      } else {
        final String dimension = t.dims.name(d);
        reported = rootDims[d] || spec.min().contains(dimension) || spec.max().contains(dimension);
      }
      if (reported) {
        result.add(d);
      }
    }
    return result.toArray();
  }

  private GroupStatus materialize(int g, int fields) {
    final GroupStatus previous = t.status[g];
    final int[] dims = reportedDimensions(g);
    if (previous == null || (fields & F_ALL) != 0) {
      return materializeAll(g, dims);
    }
    final boolean scaled = participates(g);
    return new GroupStatus(
        previous.name(),
        previous.parent(),
        previous.parentGroup(),
        previous.valid(),
        previous.reason(),
        previous.min(),
        (fields & F_SCALED) != 0 && scaled ? list(t.scaledMin, g, dims) : previous.scaledMin(),
        previous.max(),
        previous.sharedWeight(),
        (fields & F_REQUEST) != 0 ? list(t.request, g, dims) : previous.request(),
        (fields & F_LIMITED) != 0 ? list(t.limited, g, dims) : previous.limitedRequest(),
        (fields & F_USED) != 0 ? list(t.used, g, dims) : previous.used(),
        (fields & F_NP_REQUEST) != 0
            ? list(t.npRequest, g, dims)
            : previous.nonPreemptibleRequest(),
        (fields & F_NP_USED) != 0 ? list(t.npUsed, g, dims) : previous.nonPreemptibleUsed(),
        (fields & F_RUNTIME) != 0 && t.valid[g] ? list(t.runtime, g, dims) : previous.runtime());
  }

  private GroupStatus materializeAll(int g, int[] dims) {
    final boolean root = g == GroupTable.ROOT;
    final boolean normal = t.isNormal(g);
    final QuotaGroup spec = t.spec[g];
    final String parentName = root ? "" : normal ? parentName(spec) : SpecialGroups.ROOT;
    final Optional<String> reason =
        t.valid[g] ? Optional.ofNullable(t.warning[g]) : Optional.ofNullable(t.reason[g]);
    final ResourceList min = root ? ResourceList.empty() : spec.min();
    final ResourceList max = root ? ResourceList.empty() : spec.max();
    final ResourceList scaledMin;
    final ResourceList weight;
    if (normal) {
      scaledMin = participates(g) ? list(t.scaledMin, g, dims) : list(t.min, g, dims);
      weight = list(t.weight, g, dims);
    } else {
      scaledMin = root ? ResourceList.empty() : list(t.min, g, dims);
      weight = ResourceList.empty();
    }
    final ResourceList runtime = t.valid[g] ? list(t.runtime, g, dims) : t.frozen[g];
    return new GroupStatus(
        t.name[g],
        parentName,
        t.isParent[g],
        t.valid[g],
        reason,
        min,
        scaledMin,
        max,
        weight,
        list(t.request, g, dims),
        list(t.limited, g, dims),
        list(t.used, g, dims),
        list(t.npRequest, g, dims),
        list(t.npUsed, g, dims),
        runtime);
  }

  private static String parentName(QuotaGroup spec) {
    return spec.parent().isEmpty() ? SpecialGroups.ROOT : spec.parent();
  }

  private ResourceList list(long[][] columns, int g, int[] dims) {
    if (dims.length == 0) {
      return ResourceList.empty();
    }
    final ResourceList.Builder builder = ResourceList.builder();
    for (final int d : dims) {
      builder.put(t.dims.name(d), columns[d][g]);
    }
    return builder.build();
  }
}
