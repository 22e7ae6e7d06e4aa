package io.quotaflow.profile;

import io.quotaflow.quota.PodRef;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * A cluster's pods by what their group resolution reads (their quota-name label and namespace) and
 * by the group they resolve to. With it a group change re-resolves and re-routes only the pods it
 * can move, instead of every pod of the cluster. Not thread-safe.
 */
final class PodIndex {

  private record Entry(String label, String group) {}

  private final Map<PodRef, Entry> entries = new HashMap<>();
  private final Map<String, Set<PodRef>> byGroup = new HashMap<>();
  private final Map<String, Set<PodRef>> byLabel = new HashMap<>();
  private final Map<String, Set<PodRef>> byNamespace = new HashMap<>();

  /** Files a pod under its label (empty when it has none), namespace and resolved group. */
  void put(PodRef ref, String label, String group) {
    final Entry old = entries.put(ref, new Entry(label, group));
    if (old != null) {
      if (!old.label().equals(label)) {
        unfile(byLabel, old.label(), ref);
        file(byLabel, label, ref);
      }
      if (!old.group().equals(group)) {
        unfile(byGroup, old.group(), ref);
        file(byGroup, group, ref);
      }
      return;
    }
    file(byLabel, label, ref);
    file(byNamespace, ref.namespace(), ref);
    file(byGroup, group, ref);
  }

  /** Moves a known pod to another resolved group. */
  void regroup(PodRef ref, String group) {
    final Entry entry = entries.get(ref);
    put(ref, entry.label(), group);
  }

  void remove(PodRef ref) {
    final Entry old = entries.remove(ref);
    if (old != null) {
      unfile(byLabel, old.label(), ref);
      unfile(byNamespace, ref.namespace(), ref);
      unfile(byGroup, old.group(), ref);
    }
  }

  void clear() {
    entries.clear();
    byGroup.clear();
    byLabel.clear();
    byNamespace.clear();
  }

  /** The group a known pod resolves to. */
  String groupOf(PodRef ref) {
    return entries.get(ref).group();
  }

  /** The pods that resolve to {@code group}. */
  Set<PodRef> podsOf(String group) {
    return byGroup.getOrDefault(group, Set.of());
  }

  /**
   * The pods whose resolution reads group {@code name}: labelled with it, in the namespace of that
   * name, or in one of {@code namespaces} (the namespaces the group lists, before and after).
   */
  Set<PodRef> readingGroup(String name, Collection<String> namespaces) {
    final Set<PodRef> result = new HashSet<>(byLabel.getOrDefault(name, Set.of()));
    result.addAll(byNamespace.getOrDefault(name, Set.of()));
    for (final String namespace : namespaces) {
      result.addAll(byNamespace.getOrDefault(namespace, Set.of()));
    }
    return result;
  }

  private static void file(Map<String, Set<PodRef>> index, String key, PodRef ref) {
    if (!key.isEmpty()) {
      index.computeIfAbsent(key, k -> new HashSet<>()).add(ref);
    }
  }

  private static void unfile(Map<String, Set<PodRef>> index, String key, PodRef ref) {
    final Set<PodRef> refs = index.get(key);
    if (refs != null) {
      refs.remove(ref);
      if (refs.isEmpty()) {
        index.remove(key);
      }
    }
  }
}
