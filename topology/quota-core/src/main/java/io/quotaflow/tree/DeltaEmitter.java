package io.quotaflow.tree;

import io.quotaflow.quota.PodRef;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The output of a computation (SPEC 7.6: every group whose status changed is emitted, siblings
 * included): turns the groups and pods the {@link ChangeMarks} name into {@link GroupStatus} and
 * {@link PodAssignment} records, keeps the ones that differ from what was emitted last, and hands
 * them out in snapshot order as a {@link TreeDelta}, with the groups and pods removed since. Also
 * classes the used pods of the marked groups (SPEC 12) and keeps what a {@link TreeSnapshot} needs.
 */
final class DeltaEmitter {

  private static final Comparator<PodAssignment> BY_REF = (a, b) -> a.ref().compareTo(b.ref());

  private final GroupTable t;
  private final TreeLayout layout;
  private final ChangeMarks marks;
  private final NodeTotals nodes;
  private final StatusBuilder statuses;
  private final PodClassifier classifier = new PodClassifier();
  private final Consumer<PodEntry> markPending;

  /** The ledger's pods, by reference. */
  private final PodTable pods;

  /** Last emitted statuses of groups removed since the last emission. */
  private final Map<String, GroupStatus> removedGroups = new HashMap<>();

  /** Last emitted assignments of pods removed since the last emission. */
  private final Map<PodRef, PodAssignment> removedPods = new HashMap<>();

  /**
   * Every pod's last emitted assignment in reference order, kept between computations so that a
   * snapshot does not sort the pods again; null when the emitted set changed since it was built.
   */
  private List<PodAssignment> sortedAssignments = List.of();

  /** The groups whose pods' charges changed in the last emission, by name. */
  private List<String> lastCharged = List.of();

  /** Per dimension: reported by the root (some node or some group has it). */
  private boolean[] rootDims = new boolean[0];

  DeltaEmitter(
      GroupTable t,
      TreeLayout layout,
      ChangeMarks marks,
      NodeTotals nodes,
      PodTable pods,
      boolean guaranteeUsage,
      PastUsage pastUsage) {
    this.t = t;
    this.layout = layout;
    this.marks = marks;
    this.nodes = nodes;
    this.statuses = new StatusBuilder(t, guaranteeUsage, pastUsage);
    this.markPending = marks::markPending;
    this.pods = pods;
  }

  /** Makes room for {@code count} dimensions. */
  void syncDimensions(int count) {
    if (rootDims.length < count) {
      rootDims = Arrays.copyOf(rootDims, count);
    }
  }

  // --- What was emitted before ------------------------------------------------------------------

  /** A group is gone: its removal is emitted, and its status kept should it come back. */
  void groupRemoved(String name, GroupStatus last) {
    if (last != null) {
      removedGroups.put(name, last);
    }
  }

  /** The status last emitted for a group that is back (or null), no longer removed. */
  GroupStatus groupReturned(String name) {
    return removedGroups.remove(name);
  }

  /** A new pod entry takes over what was emitted for its pod before it was removed, if anything. */
  void podReturned(PodEntry entry) {
    entry.emitted = removedPods.remove(entry.pod.ref());
    if (entry.emitted != null) {
      sortedAssignments = null;
    }
  }

  /** A pod is gone: its removal is emitted if it was emitted. */
  void podRemoved(PodRef ref, PodEntry entry) {
    if (entry.emitted != null) {
      removedPods.put(ref, entry.emitted);
      sortedAssignments = null;
    }
  }

  /** Takes over an assignment emitted before a restart. */
  void restoreAssignment(PodAssignment assignment) {
    sortedAssignments = null;
    final PodEntry entry = pods.get(assignment.ref());
    if (entry != null) {
      entry.emitted = assignment;
    } else {
      removedPods.put(assignment.ref(), assignment);
    }
  }

  List<String> chargedGroups() {
    return lastCharged;
  }

  // --- Computing the output ---------------------------------------------------------------------

  /** The dimensions the root reports: those of the nodes and those any group tracks. */
  void refreshRootDims() {
    boolean changed = false;
    for (int d = 0; d < t.dims.count(); d++) {
      final boolean reported = nodes.hasDimension(d) || t.trackCount[d] > 0;
      if (rootDims[d] != reported) {
        rootDims[d] = reported;
        changed = true;
      }
    }
    if (changed) {
      marks.markStatus(GroupTable.ROOT, StatusBuilder.ALL);
      marks.markStatus(GroupTable.SYSTEM, StatusBuilder.ALL);
      marks.markStatus(GroupTable.DEFAULT, StatusBuilder.ALL);
      marks.markPods(GroupTable.SYSTEM);
      marks.markPods(GroupTable.DEFAULT);
    }
  }

  /** Classes the used pods of every group whose pods or min changed (SPEC 12). */
  void classifyPods() {
    final IntList podsList = marks.podsList;
    for (int i = 0; i < podsList.size(); i++) {
      final int g = podsList.get(i);
      t.podsDirty[g] = false;
      if (t.present[g]) {
        classifier.classify(g, t.pods[g], reportedDimensions(g), t, markPending);
      }
    }
    podsList.clear();
  }

  /** The changed statuses and assignments since the last call, and what was removed since. */
  TreeDelta emit() {
    final List<GroupStatus> changed = changedGroups();
    final List<String> removed = new ArrayList<>(removedGroups.keySet());
    Collections.sort(removed);
    removedGroups.clear();
    final IntList chargedList = marks.chargedList;
    final List<String> charged = new ArrayList<>(chargedList.size());
    for (int i = 0; i < chargedList.size(); i++) {
      final int g = chargedList.get(i);
      // A slot listed twice (released, then reused) has its flag cleared at its first listing.
      if (t.chargedDirty[g]) {
        t.chargedDirty[g] = false;
        if (t.present[g]) {
          charged.add(t.name[g]);
        }
      }
    }
    chargedList.clear();
    Collections.sort(charged);
    lastCharged = List.copyOf(charged);

    final List<PodAssignment> sortedChanges = changedPods();
    final List<PodRef> gone = new ArrayList<>(removedPods.keySet());
    Collections.sort(gone);
    removedPods.clear();
    if (!sortedChanges.isEmpty() || !gone.isEmpty()) {
      // Nothing was emitted before (a new state): the changes are every emitted pod, in order.
      final boolean fresh = sortedAssignments != null && sortedAssignments.isEmpty();
      sortedAssignments = fresh && gone.isEmpty() ? sortedChanges : null;
    }
    return new TreeDelta(nodes.reported(), changed, removed, sortedChanges, gone);
  }

  /** Rebuilds the marked statuses; those that differ, in snapshot order. */
  private List<GroupStatus> changedGroups() {
    final List<GroupStatus> changed = new ArrayList<>();
    final int[] dirty = marks.statusList.toArray();
    sortByRank(dirty);
    final int[] changedFields = marks.changedFields;
    for (final int g : dirty) {
      t.statusDirty[g] = false;
      final int fields = changedFields[g];
      changedFields[g] = 0;
      if (!t.present[g]) {
        continue;
      }
      final int[] dims = reportedDimensions(g);
      final boolean participates = layout.participating[g];
      final GroupStatus previous = t.status[g];
      // Most marked groups end up as they were (a sibling re-split to the same runtime, a group
      // restored from its last status): compared in place, they cost no new record.
      if (previous != null && statuses.matches(g, dims, participates, previous)) {
        continue;
      }
      final GroupStatus status = statuses.build(g, fields, dims, participates);
      if (!status.equals(previous)) {
        t.status[g] = status;
        changed.add(status);
      }
    }
    marks.statusList.clear();
    if (changed.size() > 1) {
      final int[] rank = layout.rank;
      changed.sort(
          Comparator.comparingInt(s -> rank[t.index.getOrDefault(s.name(), GroupTable.ROOT)]));
    }
    return changed;
  }

  /** The assignments of the marked pods that differ from what was emitted, by reference. */
  private List<PodAssignment> changedPods() {
    final List<PodAssignment> changedPods = new ArrayList<>();
    for (final PodEntry entry : marks.pendingPods) {
      entry.pending = false;
      if (entry.removed || isEmitted(entry)) {
        continue;
      }
      final PodAssignment assignment = assignmentOf(entry);
      if (!assignment.equals(entry.emitted)) {
        entry.emitted = assignment;
        changedPods.add(assignment);
      }
    }
    marks.pendingPods.clear();
    changedPods.sort(BY_REF);
    return List.copyOf(changedPods);
  }

  /** Whether the pod's assignment is the one last handed out (compared without building one). */
  private static boolean isEmitted(PodEntry entry) {
    final PodAssignment emitted = entry.emitted;
    return emitted != null
        && emitted.group().equals(entry.groupName)
        && emitted.podClass().orElse(null) == entry.podClass
        && Objects.equals(emitted.problem().orElse(null), entry.problem)
        && Objects.equals(emitted.unbound().orElse(null), entry.unbound)
        && emitted.ref().equals(entry.pod.ref());
  }

  /** The assignment a pod has now. */
  private static PodAssignment assignmentOf(PodEntry entry) {
    return new PodAssignment(
        entry.pod.ref(),
        entry.groupName,
        Optional.ofNullable(entry.podClass),
        Optional.ofNullable(entry.problem),
        Optional.ofNullable(entry.unbound));
  }

  /** Sorts slots into snapshot order (slots of removed groups last). */
  private void sortByRank(int[] slots) {
    if (slots.length < 2) {
      return;
    }
    final int[] rank = layout.rank;
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

  // --- Snapshot ---------------------------------------------------------------------------------

  /**
   * The full result as of the last emission: groups in tree order (root first, then depth first
   * with siblings by name, then groups outside the tree by name), pods by reference.
   */
  TreeSnapshot snapshot() {
    final List<GroupStatus> groups = new ArrayList<>();
    appendDepthFirst(GroupTable.ROOT, groups);
    for (final int g : layout.unattached) {
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
    return new TreeSnapshot(nodes.reported(), groups, sortedAssignments);
  }

  /**
   * The whole result of a computation that is not emitted (see {@link
   * ClusterQuotaState#computeOnce}): every present group's status and every pod's assignment as
   * {@link #classifyPods}, {@link #emit} and {@link #snapshot} would give them, built (and the pods
   * classed) when first asked for. The state must not change afterwards.
   */
  TreeSnapshot lazySnapshot() {
    final int[] order = snapshotOrder();
    return TreeSnapshot.lazy(
        nodes.reported(),
        () -> {
          final List<GroupStatus> groups = new ArrayList<>(order.length);
          for (final int g : order) {
            groups.add(
                statuses.build(
                    g, StatusBuilder.ALL, reportedDimensions(g), layout.participating[g]));
          }
          return groups;
        },
        () -> {
          // The classes of every pod, now that someone asks for them (SPEC 12).
          classifyPods();
          final List<PodAssignment> assignments = new ArrayList<>(pods.size());
          for (final PodEntry entry : pods.values()) {
            assignments.add(assignmentOf(entry));
          }
          assignments.sort(BY_REF);
          return assignments;
        });
  }

  /** Every present group in snapshot order: depth first from the root, then the unattached. */
  private int[] snapshotOrder() {
    final IntList order = new IntList();
    final IntList stack = new IntList();
    stack.add(GroupTable.ROOT);
    while (stack.size() > 0) {
      final int g = stack.pop();
      order.add(g);
      final int[] kids = t.children[g];
      for (int i = kids.length - 1; i >= 0; i--) {
        stack.add(kids[i]);
      }
    }
    for (final int g : layout.unattached) {
      order.add(g);
    }
    return order.toArray();
  }

  private void appendDepthFirst(int root, List<GroupStatus> out) {
    final IntList stack = new IntList();
    stack.add(root);
    while (stack.size() > 0) {
      final int g = stack.pop();
      if (t.status[g] != null) {
        out.add(t.status[g]);
      }
      final int[] kids = t.children[g];
      for (int i = kids.length - 1; i >= 0; i--) {
        stack.add(kids[i]);
      }
    }
  }
}
