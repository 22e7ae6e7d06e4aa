package io.quotaflow.tree;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
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
  private final Map<PodRef, PodEntry> pods = new HashMap<>();
  private final Map<String, Set<PodEntry>> podsByNamespace = new HashMap<>();
  private final Map<String, Set<PodEntry>> podsByLabel = new HashMap<>();

  PodLedger(GroupTable t, GroupDirectory directory, QuotaOptions options, Listener listener) {
    this.t = t;
    this.directory = directory;
    this.options = options;
    this.listener = listener;
  }

  /** The pods by reference; read only for callers. */
  Map<PodRef, PodEntry> pods() {
    return pods;
  }

  /** Adds or replaces a pod, charging it to its group; returns its entry. */
  PodEntry put(QuotaPod pod) {
    PodEntry entry = pods.get(pod.ref());
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
    listener.assignmentChanged(entry);
    return entry;
  }

  /** Removes a pod; returns its entry, or null when there was none. */
  PodEntry remove(PodRef ref) {
    final PodEntry entry = pods.remove(ref);
    if (entry == null) {
      return null;
    }
    entry.removed = true;
    uncharge(entry);
    unindex(entry);
    return entry;
  }

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
    listener.dimensionsAdded();
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
    for (int i = 0; i < entry.dimensions.length; i++) {
      final int d = entry.dimensions[i];
      final long amount = entry.amounts[i];
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
    listener.chargesChanged(g);
  }

  private static void charge(ExactSums sums, int d, int g, long amount, int sign) {
    if (sign > 0) {
      sums.add(d, g, amount);
    } else {
      sums.subtract(d, g, amount);
    }
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
  void remapAffected(String name, QuotaGroup old, QuotaGroup group) {
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
      listener.assignmentChanged(entry);
    }
  }

  private static void addAll(Set<PodEntry> into, Set<PodEntry> from) {
    if (from != null) {
      into.addAll(from);
    }
  }
}
