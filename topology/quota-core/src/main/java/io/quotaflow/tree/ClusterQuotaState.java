package io.quotaflow.tree;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
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

  // Which parts of a group's status changed since it was last built; the rest is reused.
  private static final int F_REQUEST = StatusBuilder.REQUEST;
  private static final int F_LIMITED = StatusBuilder.LIMITED;
  private static final int F_USED = StatusBuilder.USED;
  private static final int F_NP_REQUEST = StatusBuilder.NP_REQUEST;
  private static final int F_NP_USED = StatusBuilder.NP_USED;
  private static final int F_SCALED = StatusBuilder.SCALED;
  private static final int F_RUNTIME = StatusBuilder.RUNTIME;
  private static final int F_ALL = StatusBuilder.ALL;

  private final QuotaOptions options;
  private final GroupTable t = new GroupTable(64);
  private final GroupDirectory directory = new GroupDirectory();
  private final WaterFill fill = new WaterFill();
  private final StatusBuilder statuses = new StatusBuilder(t);
  private final PodLedger ledger;

  /** The ledger's pods, by reference. */
  private final Map<PodRef, PodEntry> pods;

  private final List<PodEntry> pendingPods = new ArrayList<>();
  private final Map<PodRef, PodAssignment> removedPods = new HashMap<>();

  /**
   * Every pod's last emitted assignment in reference order, kept between computations so that a
   * snapshot does not sort the pods again; null when the emitted set changed since it was built.
   */
  private List<PodAssignment> sortedAssignments = List.of();

  private final Map<String, QuotaNode> nodes = new HashMap<>();
  private final Map<String, ResourceList> countedAllocatable = new HashMap<>();
  private final ExactSums total = new ExactSums(1);
  private int[] nodeDimCount = new int[0];
  private long[] rootAvailable = new long[0];
  private ResourceList lastTotal = ResourceList.empty();

  private final Map<String, GroupStatus> removedGroups = new HashMap<>();

  /** Groups whose pods' charges changed since the last emission, and those of the last one. */
  private final Set<String> chargedSinceEmit = new HashSet<>();

  private List<String> lastCharged = List.of();

  /** Every slot by group name: children lists come out sorted without sorting each one. */
  private static final Comparator<PodAssignment> BY_REF = (a, b) -> a.ref().compareTo(b.ref());

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

  /**
   * The groups of {@link #order} without children, slots ascending: full passes read the leaves'
   * columns (most of the groups) forwards instead of jumping around them in breadth-first order.
   */
  private int[] leavesBySlot = new int[0];

  /**
   * {@link #leavesBySlot} as runs of consecutive slots, {@code [from, to)} pairs: with slots in
   * tree order the leaves are a few long runs, walked by counted loops.
   */
  private int[] leafRuns = new int[0];

  /** The most children any group in the tree has. */
  private int widest;

  /**
   * The groups of {@link #order} with children, by depth (parents before children), slots ascending
   * within a depth.
   */
  private int[] splitters = new int[0];

  /** Each group's position in snapshot order. */
  private int[] rank = new int[0];

  /** Per slot: a normal, valid group in the tree (see {@link #participates}). */
  private boolean[] participating = new boolean[0];

  private int maxDepth;

  /** {@link #contiguousChildren} per dimension (null: not built yet). */
  private int[][] firstChildren = new int[0][];

  // Scratch for one distribution.
  private int[] bufIndex = new int[16];
  private long[] bufRequest = new long[16];
  private long[] bufMin = new long[16];
  private long[] bufWeight = new long[16];
  private long[] bufScaled = new long[16];
  private long[] bufRuntime = new long[16];

  public ClusterQuotaState(QuotaOptions options) {
    this.options = Objects.requireNonNull(options, "options");
    this.ledger =
        new PodLedger(
            t,
            directory,
            options,
            new PodLedger.Listener() {
              @Override
              public void chargesChanged(int g) {
                chargedSinceEmit.add(t.name[g]);
                markAgg(g);
              }

              @Override
              public void podsChanged(int g) {
                markPods(g);
              }

              @Override
              public void assignmentChanged(PodEntry entry) {
                markPending(entry);
              }

              @Override
              public void dimensionsAdded() {
                syncDimensions();
              }
            });
    this.pods = ledger.pods();
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
    t.pods[slot] = new HashSet<>();
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
    if (!previous.pods().isEmpty()) {
      state.sortedAssignments = null;
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
      ledger.remapAffected(name, old, group);
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
      ledger.remapAffected(name, old, implicit);
      return;
    }
    directory.remove(name);
    for (final String dimension : GroupRules.trackedDimensions(old)) {
      t.trackCount[t.dims.id(dimension)]--;
    }
    if (t.status[slot] != null) {
      removedGroups.put(name, t.status[slot]);
    }
    ledger.remapAffected(name, old, null);
    slotsByName.remove(name);
    t.release(slot);
  }

  /** Adds or replaces a pod. */
  public void putPod(QuotaPod pod) {
    final PodEntry existing = pods.get(pod.ref());
    final PodEntry entry = ledger.put(pod);
    if (existing == null && entry != null) {
      entry.emitted = removedPods.remove(pod.ref());
      if (entry.emitted != null) {
        sortedAssignments = null;
      }
    }
  }

  public void removePod(PodRef ref) {
    final PodEntry entry = ledger.remove(ref);
    if (entry != null && entry.emitted != null) {
      removedPods.put(ref, entry.emitted);
      sortedAssignments = null;
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

  /** The pod as last put, if the state holds it. */
  public Optional<QuotaPod> podInput(PodRef ref) {
    final PodEntry entry = pods.get(ref);
    return entry == null ? Optional.empty() : Optional.of(entry.pod);
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

  /**
   * What the pods charged to {@code group} request in each dimension it tracks, before its request
   * floor is applied; empty for an unknown group. Current as of the last event.
   */
  public Optional<ResourceList> ownRequest(String group) {
    final Integer slot = t.index.get(group);
    if (slot == null || SpecialGroups.ROOT.equals(group)) {
      return Optional.empty();
    }
    final ResourceList.Builder builder = ResourceList.builder();
    for (int d = 0; d < t.dims.count(); d++) {
      if (t.tracked[d][slot]) {
        builder.put(t.dims.name(d), t.ownRequest.get(d, slot));
      }
    }
    return Optional.of(builder.build());
  }

  /**
   * The groups whose pods' charges changed in the last {@link #recompute()}, sorted by name: their
   * {@link #ownRequest} may differ from before even where their status does not (a group whose
   * request sits at its floor). May name groups whose own request ended up the same.
   */
  public List<String> chargedGroups() {
    return lastCharged;
  }

  /**
   * The runtimes {@code group} and each ancestor below the root would have if a pending pod
   * requesting {@code extra} were added to {@code group}: {@link WhatIfRuntimes} over this state's
   * last result (call it right after {@link #recompute()}).
   */
  public Map<String, ResourceList> whatIfRuntimes(String group, ResourceList extra) {
    return WhatIfRuntimes.compute(whatIfInputs(), group, extra, options.minScaling());
  }

  /** This state's last result as {@link WhatIfInputs}, read in place (not a copy). */
  public WhatIfInputs whatIfInputs() {
    return new WhatIfInputs() {
      @Override
      public Optional<GroupStatus> status(String name) {
        return group(name);
      }

      @Override
      public List<GroupStatus> children(String parent) {
        final Integer slot =
            SpecialGroups.ROOT.equals(parent)
                ? Integer.valueOf(GroupTable.ROOT)
                : t.index.get(parent);
        if (slot == null) {
          return List.of();
        }
        final List<GroupStatus> result = new ArrayList<>();
        for (final int c : t.children[slot]) {
          if (t.status[c] != null) {
            result.add(t.status[c]);
          }
        }
        return result;
      }

      @Override
      public Optional<QuotaGroup> spec(String name) {
        final Integer slot = t.index.get(name);
        return slot == null ? Optional.empty() : Optional.ofNullable(t.spec[slot]);
      }

      @Override
      public Optional<ResourceList> ownRequest(String group) {
        return ClusterQuotaState.this.ownRequest(group);
      }
    };
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
    if (sortedAssignments == null) {
      final List<PodAssignment> assignments = new ArrayList<>(pods.size());
      for (final PodEntry entry : pods.values()) {
        if (entry.emitted != null) {
          assignments.add(entry.emitted);
        }
      }
      assignments.sort(BY_REF);
      sortedAssignments = List.copyOf(assignments);
    }
    return new TreeSnapshot(lastTotal, groups, sortedAssignments);
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
      recomputeEveryDimension();
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
      nodeDimCount = Arrays.copyOf(nodeDimCount, count);
      rootAvailable = Arrays.copyOf(rootAvailable, count);
      rootDims = Arrays.copyOf(rootDims, count);
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

  /** Rebuilds the tree's shape from the specs and takes it over, noting what changed. */
  private void rebuildStructure() {
    final int[] byName = new int[slotsByName.size()];
    int k = 0;
    for (final int g : slotsByName.values()) {
      byName[k++] = g;
    }
    TreeShape shape = TreeShape.of(t, byName);
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
        markStatus(g, F_ALL);
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
    order = shape.order;
    unattached = shape.unattached;
    maxDepth = shape.maxDepth;
    sortBySlot();
    firstChildren = new int[0][];
    rank = shape.rank();
    if (aggBuckets.length < maxDepth + 1) {
      aggBuckets = newBuckets(maxDepth + 1);
      distBuckets = newBuckets(maxDepth + 1);
    }
  }

  /**
   * Moves every group to the slot {@code layout} gives it, with everything that holds a slot: the
   * table, the pods' charged slots, the name order and the pending work.
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
    slotsByName.replaceAll((groupName, slot) -> layout.target(slot));
    if (changedFields.length < t.capacity) {
      changedFields = Arrays.copyOf(changedFields, t.capacity);
    }
    layout.move(changedFields);
    statusList.renumber(layout);
    podsList.renumber(layout);
    unattachedAgg.renumber(layout);
    for (int depth = 0; depth < aggBuckets.length; depth++) {
      aggBuckets[depth].renumber(layout);
      distBuckets[depth].renumber(layout);
    }
  }

  /** Fills {@link #leavesBySlot} and {@link #splitters}. */
  private void sortBySlot() {
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
    final int[] leafSlots = new int[leaves];
    final int[] parents = new int[order.length - leaves];
    int k = 0;
    for (int g = 0; g < t.limit; g++) {
      if (inOrder[g]) {
        if (t.children[g].length == 0) {
          leafSlots[k++] = g;
        } else {
          parents[start[t.depth[g]]++] = g;
        }
      }
    }
    leavesBySlot = leafSlots;
    widest = 0;
    for (final int p : parents) {
      widest = Math.max(widest, t.children[p].length);
    }
    leafRuns = runs(leafSlots);
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

  private static IntList[] newBuckets(int size) {
    final IntList[] buckets = new IntList[size];
    for (int i = 0; i < size; i++) {
      buckets[i] = new IntList();
    }
    return buckets;
  }

  /**
   * Every aggregate and every distribution, one dimension at a time: that dimension's aggregates
   * (children before parents), then its distributions (parents before children), so the split finds
   * the columns the aggregation just read still in the cache. Dimensions are independent of each
   * other; the dirty lists are dropped.
   */
  private void recomputeEveryDimension() {
    clearWorkLists();
    ensureBuffers(widest);
    final int count = t.dims.count();
    boolean rootChanged = false;
    for (int d = 0; d < count; d++) {
      aggregateDimension(d);
      rootChanged |= refreshRootAvailable(d);
      for (final int p : splitters) {
        if (t.isParent[p] && t.valid[p]) {
          distributeDimension(p, d);
        }
      }
    }
    if (rootChanged) {
      markDist(GroupTable.ROOT);
      markStatus(GroupTable.ROOT, F_RUNTIME);
    }
    distributeToSpecialGroups();
    clearWorkLists();
  }

  /** Every aggregate of one dimension, children before parents, its columns read once. */
  private void aggregateDimension(int d) {
    final ColumnAggregator column = new ColumnAggregator(d);
    for (final int g : unattached) {
      column.aggregate(g);
    }
    // Every child before its parent: the leaves, then the parents deepest first.
    for (int r = 0; r < leafRuns.length; r += 2) {
      column.aggregateLeaves(leafRuns[r], leafRuns[r + 1]);
    }
    for (int i = splitters.length - 1; i >= 0; i--) {
      column.aggregate(splitters[i]);
    }
  }

  /** Leaves checked for a change at a time in a full pass (a block that changed is redone). */
  private static final int LEAF_BLOCK = 64;

  /** {@link #aggregate} for one dimension, over columns read once. */
  private final class ColumnAggregator {
    private final boolean[] tracked;
    private final boolean[] valid = t.valid;
    private final int[][] children = t.children;
    private final long[] ownRequest;
    private final long[] ownUsed;
    private final long[] ownNpRequest;
    private final long[] ownNpUsed;
    private final long[] floor;
    private final long[] effMax;
    private final long[] requestColumn;
    private final long[] limitedColumn;
    private final long[] usedColumn;
    private final long[] npRequestColumn;
    private final long[] npUsedColumn;

    ColumnAggregator(int d) {
      tracked = t.tracked[d];
      ownRequest = t.ownRequest.column(d);
      ownUsed = t.ownUsed.column(d);
      ownNpRequest = t.ownNpRequest.column(d);
      ownNpUsed = t.ownNpUsed.column(d);
      floor = t.floor[d];
      effMax = t.effMax[d];
      requestColumn = t.request[d];
      limitedColumn = t.limited[d];
      usedColumn = t.used[d];
      npRequestColumn = t.npRequest[d];
      npUsedColumn = t.npUsed[d];
    }

    /** {@link #aggregate} for the groups {@code [from, to)}, none with children. */
    void aggregateLeaves(int from, int to) {
      for (int start = from; start < to; start += LEAF_BLOCK) {
        final int end = Math.min(to, start + LEAF_BLOCK);
        if (leavesUnchanged(start, end)) {
          continue;
        }
        for (int g = start; g < end; g++) {
          if (tracked[g]) {
            record(g, ownRequest[g], ownUsed[g], ownNpRequest[g], ownNpUsed[g]);
          }
        }
      }
    }

    /**
     * Whether {@link #record} would change nothing for the leaves {@code [from, to)}: one loop
     * without branches or stores that ORs together every difference (usually none, so the block is
     * done).
     */
    private boolean leavesUnchanged(int from, int to) {
      long difference = 0;
      for (int g = from; g < to; g++) {
        final long request = Math.max(ownRequest[g], floor[g]);
        final long limited = Math.min(request, effMax[g]);
        final long change =
            (requestColumn[g] ^ request)
                | (limitedColumn[g] ^ limited)
                | (usedColumn[g] ^ ownUsed[g])
                | (npRequestColumn[g] ^ ownNpRequest[g])
                | (npUsedColumn[g] ^ ownNpUsed[g]);
        difference |= tracked[g] ? change : 0;
      }
      return difference == 0;
    }

    void aggregate(int g) {
      if (!tracked[g]) {
        return;
      }
      long request = ownRequest[g];
      long used = ownUsed[g];
      long npRequest = ownNpRequest[g];
      long npUsed = ownNpUsed[g];
      final boolean validGroup = valid[g];
      // Without branches, and without a saturation check per addition: every amount is
      // non-negative, so a plain sum overflowed iff it went negative at some point, and the
      // saturated sum is then Long.MAX_VALUE.
      boolean requestOverflow = false;
      boolean usedOverflow = false;
      boolean npRequestOverflow = false;
      boolean npUsedOverflow = false;
      for (final int c : children[g]) {
        final boolean counted = tracked[c];
        // A valid parent asks only for its valid children; the other sums add up raw.
        request += counted & (valid[c] | !validGroup) ? limitedColumn[c] : 0;
        used += counted ? usedColumn[c] : 0;
        npRequest += counted ? npRequestColumn[c] : 0;
        npUsed += counted ? npUsedColumn[c] : 0;
        requestOverflow |= request < 0;
        usedOverflow |= used < 0;
        npRequestOverflow |= npRequest < 0;
        npUsedOverflow |= npUsed < 0;
      }
      record(
          g,
          requestOverflow ? Long.MAX_VALUE : request,
          usedOverflow ? Long.MAX_VALUE : used,
          npRequestOverflow ? Long.MAX_VALUE : npRequest,
          npUsedOverflow ? Long.MAX_VALUE : npUsed);
    }

    /** Applies the floor and the max to the summed request and stores what changed. */
    private void record(int g, long summedRequest, long used, long npRequest, long npUsed) {
      final long request = Math.max(summedRequest, floor[g]);
      final long limited = Math.min(request, effMax[g]);
      int fields = 0;
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
  }

  private void clearWorkLists() {
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
      changedFields = Arrays.copyOf(changedFields, t.capacity);
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
      changed |= refreshRootAvailable(d);
    }
    if (changed) {
      markDist(GroupTable.ROOT);
      markStatus(GroupTable.ROOT, F_RUNTIME);
    }
  }

  /** {@link #refreshRootAvailable()} in one dimension; true if it changed (nothing marked). */
  private boolean refreshRootAvailable(int d) {
    final long carved = Arith.add(t.used[d][GroupTable.SYSTEM], t.used[d][GroupTable.DEFAULT]);
    final long available = Math.max(0L, total.get(d, 0) - carved);
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

  /**
   * Per parent, for dimension {@code d}: the slot of its first child if its children sit at
   * consecutive slots and every one of them tracks {@code d} and takes part in the split, else -1.
   * Derived from the shape and the tracked dimensions (both change only with the structure), built
   * on first use after a rebuild or a new dimension.
   */
  private int[] contiguousChildren(int d) {
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

  /** One parent's distribution in one dimension (buffers sized by the caller). */
  private void distributeDimension(int p, int d) {
    // A dimension the parent does not track is not bounded at its level.
    final boolean unbounded = p != GroupTable.ROOT && !t.tracked[d][p];
    final long available = p == GroupTable.ROOT ? rootAvailable[d] : t.runtime[d][p];
    final boolean[] tracked = t.tracked[d];
    final long[] limitedColumn = t.limited[d];
    final long[] minColumn = t.min[d];
    final long[] weightColumn = t.weight[d];
    final int[] kids = t.children[p];
    final int[] firstChild = contiguousChildren(d);
    final int first = p < firstChild.length ? firstChild[p] : -1;
    int n = 0;
    if (first >= 0) {
      // Every child takes part, at consecutive slots: plain copies, no filter.
      n = kids.length;
      for (int i = 0; i < n; i++) {
        bufIndex[i] = first + i;
        bufRequest[i] = limitedColumn[first + i];
        bufMin[i] = minColumn[first + i];
        bufWeight[i] = weightColumn[first + i];
      }
    } else {
      // Without branches: most children of a parent tracking a rare dimension do not track it.
      for (final int c : kids) {
        bufIndex[n] = c;
        bufRequest[n] = limitedColumn[c];
        bufMin[n] = minColumn[c];
        bufWeight[n] = weightColumn[c];
        n += tracked[c] & participating[c] ? 1 : 0;
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
    // Usually nothing changed: one loop without branches tells, before the one that marks.
    long difference = 0;
    for (int i = 0; i < n; i++) {
      final int c = bufIndex[i];
      difference |= (scaledColumn[c] ^ bufScaled[i]) | (runtimeColumn[c] ^ bufRuntime[i]);
    }
    if (difference == 0) {
      return;
    }
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
    final List<String> charged = new ArrayList<>(chargedSinceEmit.size());
    for (final String name : chargedSinceEmit) {
      if (t.index.containsKey(name)) {
        charged.add(name);
      }
    }
    Collections.sort(charged);
    chargedSinceEmit.clear();
    lastCharged = List.copyOf(charged);

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
    changedPods.sort(BY_REF);
    final List<PodAssignment> sortedChanges = List.copyOf(changedPods);
    final List<PodRef> gone = new ArrayList<>(removedPods.keySet());
    Collections.sort(gone);
    removedPods.clear();
    if (!sortedChanges.isEmpty() || !gone.isEmpty()) {
      // Nothing was emitted before (a new state): the changes are every emitted pod, in order.
      final boolean fresh = sortedAssignments != null && sortedAssignments.isEmpty();
      sortedAssignments = fresh && gone.isEmpty() ? sortedChanges : null;
    }
    return new TreeDelta(lastTotal, changed, removed, sortedChanges, gone);
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
    Arrays.sort(keyed);
    for (int i = 0; i < slots.length; i++) {
      slots[i] = (int) keyed[i];
    }
  }

  private int[] reportedDimensions(int g) {
    return statuses.reportedDimensions(g, rootDims);
  }

  private GroupStatus materialize(int g, int fields) {
    return statuses.build(g, fields, reportedDimensions(g), participates(g));
  }
}
