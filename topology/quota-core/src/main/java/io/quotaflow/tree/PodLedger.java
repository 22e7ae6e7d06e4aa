package io.quotaflow.tree;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The pods of one cluster and what each one is charged for (SPEC 4, 5): their group, their
 * contribution to the group's exact sums, and the indexes (by namespace, by quota-name label) that
 * find the pods whose group may change when a group appears, disappears or changes its namespaces.
 */
final class PodLedger {

  /** What the ledger tells the state about. */
  interface Listener {
    /** The exact sums of group {@code g} changed. */
    void chargesChanged(int g);

    /** The set of pods charged to group {@code g} (or one of them) changed. */
    void podsChanged(int g);

    /** A pod's assignment may have changed. */
    void assignmentChanged(PodEntry entry);

    /** New dimensions were interned. */
    void dimensionsAdded();
  }

  private final GroupTable t;
  private final GroupDirectory directory;
  private final QuotaOptions options;
  private final Listener listener;
  private final PodTable pods;
  // Built on the first change of a group that has to re-resolve pods (a cold start never needs
  // them), then kept up to date.
  private final Map<String, Set<PodEntry>> podsByNamespace = new HashMap<>();
  private final Map<String, Set<PodEntry>> podsByLabel = new HashMap<>();
  private boolean indexed;
  private boolean lastPutAdded;
  private int unboundPods;

  // The dimensions of the last request measured, and their ids (see dimensionsOf).
  private String[] lastNames = new String[0];
  private int[] lastIds = new int[0];

  /**
   * @param expectedPods how many pods the ledger is about to hold (0 when unknown), so that a cold
   *     start does not grow the map step by step
   */
  PodLedger(
      GroupTable t,
      GroupDirectory directory,
      QuotaOptions options,
      Listener listener,
      int expectedPods) {
    this.t = t;
    this.directory = directory;
    this.options = options;
    this.listener = listener;
    this.pods = new PodTable(expectedPods);
  }

  /** The pods by reference; read only for callers. */
  PodTable pods() {
    return pods;
  }

  /** How many pods are charged as if unlabelled because their label names an unbound group. */
  int unboundPods() {
    return unboundPods;
  }

  /** Whether the last {@link #put} added an entry (the pod was not held). */
  boolean lastPutAdded() {
    return lastPutAdded;
  }

  /** Adds or replaces a pod, charging it to its group; returns its entry. */
  PodEntry put(QuotaPod pod) {
    PodEntry entry = pods.get(pod.ref());
    lastPutAdded = entry == null;
    if (entry != null && entry.pod.equals(pod)) {
      return entry;
    }
    if (entry != null && entry.pod.quotaName().equals(pod.quotaName())) {
      // Same namespace and label: the pod resolves to the group it is charged to (a change of the
      // groups re-resolves through remapAffected); only what it charges changes.
      recharge(entry, pod);
      listener.assignmentChanged(entry);
      return entry;
    }
    if (entry == null) {
      entry = new PodEntry(pod);
      pods.putIfAbsent(entry);
    } else {
      uncharge(entry);
      unindex(entry);
      entry.pod = pod;
    }
    measure(entry);
    resolve(entry);
    charge(entry);
    index(entry);
    listener.assignmentChanged(entry);
    return entry;
  }

  /**
   * Adds pods to a ledger being loaded, as {@link #put} would one by one, telling the listener of
   * each group's changes once rather than once per pod. A pod already held (a reference given
   * twice) goes through {@link #put}.
   */
  void putAll(List<QuotaPod> added) {
    final boolean[] requested = new boolean[t.limit];
    for (final QuotaPod pod : added) {
      final PodEntry entry = new PodEntry(pod);
      if (pods.putIfAbsent(entry) != null) {
        put(pod);
        continue;
      }
      measure(entry);
      resolveLoading(entry);
      final int g = entry.group;
      if (g >= 0) {
        t.pods[g].add(entry);
        addQuietly(entry, g, 1);
        if (entry.countsRequest && !requested[g]) {
          requested[g] = true;
          listener.chargesChanged(g);
        }
        listener.podsChanged(g);
      }
      index(entry);
      listener.assignmentChanged(entry);
    }
  }

  /**
   * The interned ids of a request's dimensions, in its order: the array of the previous pod when
   * its request named the same dimensions (as most pods' do), so pods share it.
   */
  private int[] dimensionsOf(ResourceList request) {
    final int size = request.size();
    if (size == lastNames.length) {
      boolean same = true;
      for (int i = 0; i < size && same; i++) {
        same = lastNames[i].equals(request.nameAt(i));
      }
      if (same) {
        return lastIds;
      }
    }
    final int known = t.dims.count();
    final String[] names = new String[size];
    final int[] ids = new int[size];
    for (int i = 0; i < size; i++) {
      names[i] = request.nameAt(i);
      ids[i] = t.dims.intern(names[i]);
    }
    if (t.dims.count() != known) {
      listener.dimensionsAdded();
    }
    lastNames = names;
    lastIds = ids;
    return ids;
  }

  /** Removes a pod; returns its entry, or null when there was none. */
  PodEntry remove(PodRef ref) {
    final PodEntry entry = pods.remove(ref);
    if (entry == null) {
      return null;
    }
    entry.removed = true;
    if (entry.unbound != null) {
      unboundPods--;
    }
    uncharge(entry);
    unindex(entry);
    return entry;
  }

  private void measure(PodEntry entry) {
    final ResourceList request = PodAccounting.effectiveRequest(entry.pod, options);
    entry.request = request;
    entry.dimensions = dimensionsOf(request);
    entry.createdSecond = entry.pod.creationTime().getEpochSecond();
    entry.createdNano = entry.pod.creationTime().getNano();
    entry.countsRequest = PodAccounting.countsAsRequest(entry.pod, options);
    entry.countsUsed = PodAccounting.countsAsUsed(entry.pod, options);
    entry.nonPreemptible = !entry.pod.preemptible();
  }

  private void resolve(PodEntry entry) {
    final String unbound = directory.unboundOf(entry.pod);
    if ((entry.unbound == null) != (unbound == null)) {
      unboundPods += unbound == null ? -1 : 1;
    }
    entry.unbound = unbound;
    entry.groupName = directory.groupOf(entry.pod);
    entry.problem = directory.problemOf(entry.groupName);
    entry.group = entry.problem == null ? t.index.get(entry.groupName) : -1;
  }

  /**
   * {@link #resolve} while loading, when the slots index exactly the directory's groups (the
   * special ones included, the root never; during a group's removal they do not): most pods name an
   * existing group bound to their namespace in their label, and one lookup of the slots then does
   * it.
   */
  private void resolveLoading(PodEntry entry) {
    final String label = entry.pod.quotaName().orElse("");
    if (!label.isEmpty()) {
      final Integer slot = t.index.get(label);
      // A label naming a parent group is honoured only when parent groups may own pods; else the
      // pod resolves as if unlabelled, with the reason (issue 39), through resolve.
      if (slot != null
          && directory.admitsLabel(entry.pod, t.isNormal(slot) ? t.spec[slot] : null)
          && !(t.isNormal(slot) && t.spec[slot].parentGroup() && !directory.parentPods())) {
        entry.groupName = label;
        entry.problem = null;
        entry.group = slot;
        return;
      }
    }
    resolve(entry);
  }

  private void charge(PodEntry entry) {
    final int g = entry.group;
    if (g < 0) {
      return;
    }
    t.pods[g].add(entry);
    addCharges(entry, g, 1);
    listener.podsChanged(g);
  }

  private void uncharge(PodEntry entry) {
    final int g = entry.group;
    entry.podClass = null;
    if (g < 0) {
      return;
    }
    t.pods[g].remove(entry);
    addCharges(entry, g, -1);
    listener.podsChanged(g);
    entry.group = -1;
  }

  /** {@link #uncharge} then {@link #charge} of a pod that stays in its group. */
  private void recharge(PodEntry entry, QuotaPod pod) {
    final int g = entry.group;
    entry.podClass = null;
    if (g >= 0) {
      addCharges(entry, g, -1);
    }
    entry.pod = pod;
    measure(entry);
    if (g >= 0) {
      addCharges(entry, g, 1);
      listener.podsChanged(g);
    }
  }

  /** Adds ({@code sign} 1) or takes back (-1) what the pod charges to group {@code g}. */
  private void addCharges(PodEntry entry, int g, int sign) {
    if (!entry.countsRequest) {
      return;
    }
    addQuietly(entry, g, sign);
    listener.chargesChanged(g);
  }

  /** {@link #addCharges} without telling the listener. */
  private void addQuietly(PodEntry entry, int g, int sign) {
    if (!entry.countsRequest) {
      return;
    }
    for (int i = 0; i < entry.dimensions.length; i++) {
      final int d = entry.dimensions[i];
      final long amount = entry.request.amountAt(i);
      charge(t.ownRequest, d, g, amount, sign);
      if (entry.countsUsed) {
        charge(t.ownUsed, d, g, amount, sign);
      }
      if (entry.nonPreemptible) {
        charge(t.ownNpRequest, d, g, amount, sign);
        if (entry.countsUsed) {
          charge(t.ownNpUsed, d, g, amount, sign);
        }
      }
    }
  }

  private static void charge(ExactSums sums, int d, int g, long amount, int sign) {
    if (sign > 0) {
      sums.add(d, g, amount);
    } else {
      sums.subtract(d, g, amount);
    }
  }

  private void index(PodEntry entry) {
    if (!indexed) {
      return;
    }
    podsByNamespace.computeIfAbsent(entry.pod.ref().namespace(), n -> identitySet()).add(entry);
    entry
        .pod
        .quotaName()
        .ifPresent(label -> podsByLabel.computeIfAbsent(label, n -> identitySet()).add(entry));
  }

  private void unindex(PodEntry entry) {
    if (!indexed) {
      return;
    }
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
  void remapAffected(String name, QuotaGroup old, QuotaGroup group) {
    if (pods.isEmpty()) {
      return;
    }
    if (!indexed) {
      indexed = true;
      pods.values().forEach(this::index);
    }
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
          && Objects.equals(beforeProblem, target.problem().orElse(null))
          && Objects.equals(entry.unbound, target.unbound().orElse(null))) {
        continue;
      }
      uncharge(entry);
      resolve(entry);
      charge(entry);
      listener.assignmentChanged(entry);
    }
  }

  private static void addAll(Set<PodEntry> into, Iterable<PodEntry> from) {
    if (from != null) {
      from.forEach(into::add);
    }
  }
}
