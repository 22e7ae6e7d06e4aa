package io.quotaflow.tree;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

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
 * <p>A facade over one {@link GroupTable} of primitive columns and the package-private parts that
 * work on it, one per concern: {@link PodLedger} (SPEC 4, 5: pods and their charges), {@link
 * NodeTotals} (SPEC 3: the cluster total), {@link TreeLayout} (the tree's shape and slots), {@link
 * RequestAggregation} (SPEC 6: up the tree), {@link RuntimeDistribution} (SPEC 7, 8: down the
 * tree), {@link ChangeMarks} (what to redo) and {@link DeltaEmitter} (what changed, as records).
 *
 * <p>One instance per cluster, owned by one thread; not thread-safe. Deterministic: no clock, no
 * randomness, and no dependence on the order in which inputs arrived.
 */
public final class ClusterQuotaState {

  private final QuotaOptions options;
  private final GroupTable t;
  private final GroupDirectory directory;
  private final ChangeMarks marks;
  private final TreeLayout layout;
  private final NodeTotals nodes;
  private final RequestAggregation aggregation;
  private final RuntimeDistribution distribution;
  private final PodLedger ledger;
  private final DeltaEmitter output;
  private final TableWhatIfInputs lastResult;
  private final PastUsage pastUsage = new PastUsage();

  /** The ledger's pods, by reference. */
  private final PodTable pods;

  public ClusterQuotaState(QuotaOptions options) {
    this(options, 0, 0);
  }

  /** A state about to be loaded with about {@code groups} groups and {@code pods} pods. */
  private ClusterQuotaState(QuotaOptions options, int groups, int expectedPods) {
    this.options = Objects.requireNonNull(options, "options");
    this.t = new GroupTable(Math.max(64, groups + GroupTable.DEFAULT + 1));
    this.directory = new GroupDirectory(options.parentPods(), groups, options.namespaceBinding());
    this.marks = new ChangeMarks(t);
    this.layout = new TreeLayout(t, marks);
    this.aggregation = new RequestAggregation(t, layout, marks, options.guaranteeUsage());
    this.lastResult = new TableWhatIfInputs(t);
    this.nodes = new NodeTotals(t, options);
    this.distribution =
        new RuntimeDistribution(
            t, layout, marks, nodes, options.minScaling(), options.guaranteeUsage(), pastUsage);
    this.ledger =
        new PodLedger(
            t,
            directory,
            options,
            new PodLedger.Listener() {
              @Override
              public void chargesChanged(int g) {
                marks.markCharged(g);
              }

              @Override
              public void podsChanged(int g) {
                marks.markPods(g);
              }

              @Override
              public void assignmentChanged(PodEntry entry) {
                marks.markPending(entry);
              }

              @Override
              public void dimensionsAdded() {
                syncDimensions();
              }
            },
            expectedPods);
    this.pods = ledger.pods();
    this.output =
        new DeltaEmitter(t, layout, marks, nodes, pods, options.guaranteeUsage(), pastUsage);
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
    t.pods[slot] = new GroupPods();
    marks.markStatus(slot, StatusBuilder.ALL);
  }

  /**
   * A state holding {@code inputs} whose last result is {@code previous} (e.g. read back from a
   * store after a restart): invalid groups keep the runtimes {@code previous} gives them, and the
   * first {@link #recompute()} reports what differs from {@code previous}.
   */
  public static ClusterQuotaState restore(
      QuotaOptions options, ClusterInputs inputs, TreeSnapshot previous) {
    final ClusterQuotaState state =
        new ClusterQuotaState(options, inputs.groups().size(), inputs.pods().size());
    inputs.groups().forEach(state::putGroup);
    for (final GroupStatus status : previous.groups()) {
      final Integer slot = state.t.index.get(status.name());
      if (SpecialGroups.ROOT.equals(status.name())) {
        state.t.status[GroupTable.ROOT] = status;
      } else if (slot != null) {
        state.t.status[slot] = status;
      } else {
        state.output.groupRemoved(status.name(), status);
      }
    }
    // The tree's shape, and the groups' slots in tree order, before any pod is charged to a slot:
    // renumbering then moves no pod. (An invalid group's runtime is taken from its previous
    // status, set above.)
    state.layOut();
    // No pod was removed from this state: none takes over an emitted assignment (putPod's
    // podReturned), the previous ones are taken over below.
    state.ledger.putAll(inputs.pods());
    inputs.nodes().forEach(state::putNode);
    for (final PodAssignment assignment : previous.pods()) {
      state.output.restoreAssignment(assignment);
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
      t.status[slot] = output.groupReturned(name);
      old = null;
    } else {
      slot = existing;
      old = t.spec[slot];
    }
    final String oldProblem = t.localProblem[slot];
    GroupRules.apply(t, slot, group, options);
    directory.put(group);
    marks.markStatus(slot, StatusBuilder.ALL);
    marks.markPods(slot);
    t.warning[slot] = GroupRules.warning(group).orElse(null);
    t.localProblem[slot] = GroupRules.localProblem(group).orElse(null);
    if (old == null
        || !t.isNormal(slot)
        || isStructural(old, group)
        || !Objects.equals(oldProblem, t.localProblem[slot])) {
      marks.structureDirty = true;
      ledger.remapAffected(name, old, group);
      return;
    }
    marks.markAgg(slot);
    if (t.attached[slot] && t.valid[slot]) {
      marks.markDist(t.parent[slot]);
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
    marks.structureDirty = true;
    if (!t.isNormal(slot)) {
      final QuotaGroup implicit = GroupRules.implicitSpec(name, options);
      if (old.equals(implicit)) {
        return;
      }
      directory.remove(name);
      GroupRules.apply(t, slot, implicit, options);
      t.warning[slot] = null;
      t.localProblem[slot] = null;
      marks.markStatus(slot, StatusBuilder.ALL);
      marks.markPods(slot);
      ledger.remapAffected(name, old, implicit);
      return;
    }
    directory.remove(name);
    for (final String dimension : GroupRules.trackedDimensions(old)) {
      t.trackCount[t.dims.id(dimension)]--;
    }
    output.groupRemoved(name, t.status[slot]);
    ledger.remapAffected(name, old, null);
    t.release(slot);
  }

  /** Adds or replaces a pod. */
  public void putPod(QuotaPod pod) {
    final PodEntry entry = ledger.put(pod);
    if (ledger.lastPutAdded()) {
      output.podReturned(entry);
    }
  }

  public void removePod(PodRef ref) {
    final PodEntry entry = ledger.remove(ref);
    if (entry != null) {
      output.podRemoved(ref, entry);
    }
  }

  /**
   * Sets {@code group}'s decayed average borrowed per resource (fair share with memory,
   * docs/semantics.md section 24): it lowers the group's weight in its parent's split of surplus.
   * Zero or absent resources count as no past use; a state never given any computes exactly as
   * without the setting. A group not (yet) present keeps it for when it comes.
   *
   * @throws IllegalArgumentException for a negative amount
   */
  public void putPastUsage(String group, ResourceList averageBorrowed) {
    if (!pastUsage.put(group, averageBorrowed)) {
      return;
    }
    final Integer slot = t.index.get(group);
    if (slot == null) {
      return;
    }
    marks.markStatus(slot, StatusBuilder.PAST);
    if (t.attached[slot] && t.valid[slot] && t.parent[slot] >= 0) {
      marks.markDist(t.parent[slot]);
    }
  }

  /** {@code group}'s decayed average borrowed as last put; empty when none. */
  public ResourceList pastUsage(String group) {
    return pastUsage.of(group);
  }

  /** Adds or replaces a node. */
  public void putNode(QuotaNode node) {
    nodes.put(node, this::syncDimensions);
  }

  public void removeNode(String name) {
    nodes.remove(name);
  }

  // ---------------------------------------------------------------------------------------------
  // Queries

  public Optional<GroupStatus> group(String name) {
    return lastResult.status(name);
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
    return lastResult.ownRequest(group);
  }

  /**
   * How many pods are charged as if unlabelled because their quota-name label names a group not
   * bound to their namespace (they got past the pod webhook while it was down, or were created
   * before quotaflow). Current as of the last event.
   */
  public int unboundPods() {
    return ledger.unboundPods();
  }

  /**
   * The groups whose pods' charges changed in the last {@link #recompute()}, sorted by name: their
   * {@link #ownRequest} may differ from before even where their status does not (a group whose
   * request sits at its floor). May name groups whose own request ended up the same.
   */
  public List<String> chargedGroups() {
    return output.chargedGroups();
  }

  /**
   * The runtimes {@code group} and each ancestor below the root would have if a pending pod
   * requesting {@code extra} were added to {@code group}: {@link WhatIfRuntimes} over this state's
   * last result (call it right after {@link #recompute()}).
   */
  public Map<String, ResourceList> whatIfRuntimes(String group, ResourceList extra) {
    return WhatIfRuntimes.compute(whatIfInputs(), group, extra, options);
  }

  /** This state's last result as {@link WhatIfInputs}, read in place (not a copy). */
  /** Explains the runtimes of the last recomputation (issue 27). */
  public RuntimeExplainer explainer() {
    return new RuntimeExplainer(whatIfInputs(), options);
  }

  public WhatIfInputs whatIfInputs() {
    return lastResult;
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
    for (final PodEntry entry : pods.values()) {
      podList.add(entry.pod);
    }
    return new ClusterInputs(groups, podList, nodes.inputs());
  }

  /**
   * The full result as of the last {@link #recompute()}: groups in tree order (root first, then
   * depth first with siblings by name, then groups outside the tree by name), pods by reference.
   */
  public TreeSnapshot snapshot() {
    return output.snapshot();
  }

  // ---------------------------------------------------------------------------------------------
  // Recomputation

  /** Brings every result up to date with the inputs and returns what changed. */
  public TreeDelta recompute() {
    refreshResults();
    output.classifyPods();
    return output.emit();
  }

  /**
   * Brings every aggregate and runtime up to date, as {@link #recompute()} does, and hands out the
   * whole result without a delta: its statuses built on first use, its pods classed (SPEC 12) and
   * their assignments built on first use too. For a state computed once ({@link QuotaCalculator}),
   * which must not change afterwards.
   */
  TreeSnapshot computeOnce() {
    refreshResults();
    return output.lazySnapshot();
  }

  /** Takes over a changed tree shape (renumbering the slots into tree order). */
  private void layOut() {
    syncDimensions();
    if (marks.structureDirty) {
      layout.rebuild();
      marks.structureDirty = false;
      marks.fullPass = true;
    }
  }

  /**
   * Every aggregate and runtime up to date with the inputs (the pods' classes are left to {@link
   * DeltaEmitter#classifyPods}); nothing emitted yet.
   */
  private void refreshResults() {
    layOut();
    t.outputsWritten = true;
    if (nodes.refresh()) {
      marks.markDist(GroupTable.ROOT);
      marks.markPods(GroupTable.SYSTEM);
      marks.markPods(GroupTable.DEFAULT);
    }
    output.refreshRootDims();
    if (marks.fullPass) {
      recomputeEveryDimension();
      marks.fullPass = false;
    } else {
      aggregation.aggregateUp();
      distribution.distributeDown();
    }
  }

  /**
   * Recomputes every aggregate and every runtime as if every pod and spec had changed (the tree's
   * shape is rebuilt only if it changed), and returns what changed: nothing, if the state was up to
   * date. For verification and benchmarks; {@link #recompute()} is always enough.
   */
  public TreeDelta recomputeAll() {
    marks.fullPass = true;
    return recompute();
  }

  private void syncDimensions() {
    t.syncDimensions();
    final int count = t.dims.count();
    nodes.syncDimensions(count);
    distribution.syncDimensions(count);
    output.syncDimensions(count);
  }

  /**
   * Every aggregate and every distribution, one dimension at a time: that dimension's aggregates
   * (children before parents), then its distributions (parents before children), so the split finds
   * the columns the aggregation just read still in the cache. Dimensions are independent of each
   * other; the dirty lists are dropped.
   */
  private void recomputeEveryDimension() {
    marks.clearWorkLists();
    final int count = t.dims.count();
    boolean rootChanged = false;
    for (int d = 0; d < count; d++) {
      aggregation.aggregateDimension(d);
      rootChanged |= distribution.refreshRootAvailable(d);
      distribution.distributeEveryParent(d);
    }
    if (rootChanged) {
      distribution.rootChanged();
    }
    distribution.distributeToSpecialGroups();
    marks.clearWorkLists();
  }
}
