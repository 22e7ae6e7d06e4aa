package io.quotaflow.tree;

import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.SpecialGroups;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Resolves the group a pod is charged to (SPEC 4): the quota-name label if it names an existing
 * group, else a group named like the namespace, else a group listing the namespace, else the
 * default group. A pod that resolves to the root, or to a parent group while parent groups may not
 * own pods (docs/semantics.md section 18), gets a problem instead of being charged.
 *
 * <p>The system and default groups always exist, with or without an ElasticQuota object. Mutable
 * and not thread-safe; {@link #of} builds one for a one-off lookup.
 */
public final class GroupDirectory {

  private final Map<String, QuotaGroup> groups;
  private final Map<String, TreeSet<String>> namespaceOwners = new HashMap<>();
  private final boolean parentPods;

  /** A directory in which only leaf groups are charged for pods (Koordinator's default). */
  public GroupDirectory() {
    this(false);
  }

  /**
   * A directory in which parent groups own the pods that resolve to them when {@code parentPods}
   * (Koordinator's SupportParentQuotaSubmitPod).
   */
  public GroupDirectory(boolean parentPods) {
    this(parentPods, 0);
  }

  /** As {@link #GroupDirectory(boolean)}, sized for about {@code expectedGroups} groups. */
  GroupDirectory(boolean parentPods, int expectedGroups) {
    this.parentPods = parentPods;
    this.groups = new HashMap<>(Math.max(16, expectedGroups * 4 / 3 + 1));
  }

  /** The group a pod resolves to; {@code problem} is set when it cannot be charged there. */
  public record Target(String group, Optional<String> problem) {}

  public static GroupDirectory of(Collection<QuotaGroup> groups) {
    return of(groups, false);
  }

  /** A directory of {@code groups}; parent groups own pods when {@code parentPods}. */
  public static GroupDirectory of(Collection<QuotaGroup> groups, boolean parentPods) {
    final GroupDirectory directory = new GroupDirectory(parentPods);
    groups.forEach(directory::put);
    return directory;
  }

  public void put(QuotaGroup group) {
    remove(group.name());
    groups.put(group.name(), group);
    for (final String namespace : group.namespaces()) {
      namespaceOwners.computeIfAbsent(namespace, n -> new TreeSet<>()).add(group.name());
    }
  }

  public void remove(String name) {
    final QuotaGroup old = groups.remove(name);
    if (old == null) {
      return;
    }
    for (final String namespace : old.namespaces()) {
      final TreeSet<String> owners = namespaceOwners.get(namespace);
      owners.remove(name);
      if (owners.isEmpty()) {
        namespaceOwners.remove(namespace);
      }
    }
  }

  public Optional<QuotaGroup> group(String name) {
    return Optional.ofNullable(groups.get(name));
  }

  /** Whether a group of this name exists (the special groups always do). */
  public boolean exists(String name) {
    return groups.containsKey(name)
        || SpecialGroups.SYSTEM.equals(name)
        || SpecialGroups.DEFAULT.equals(name);
  }

  /** The groups whose namespaces annotation lists {@code namespace}, by name. */
  public List<String> owners(String namespace) {
    final TreeSet<String> owners = namespaceOwners.get(namespace);
    return owners == null ? List.of() : List.copyOf(owners);
  }

  public Target resolve(QuotaPod pod) {
    return resolve(pod, parentPods);
  }

  /** {@link #resolve(QuotaPod)}, parent groups owning pods when {@code parentPods}. */
  public Target resolve(QuotaPod pod, boolean parentPods) {
    final String name = groupOf(pod);
    return new Target(name, Optional.ofNullable(problemOf(name, parentPods)));
  }

  /** The name of the group a pod resolves to, whether it can be charged there or not. */
  String groupOf(QuotaPod pod) {
    final String label = pod.quotaName().orElse("");
    if (SpecialGroups.ROOT.equals(label)) {
      return SpecialGroups.ROOT;
    }
    if (!label.isEmpty() && exists(label)) {
      return label;
    }
    final String namespace = pod.ref().namespace();
    if (exists(namespace)) {
      return namespace;
    }
    final TreeSet<String> owners = namespaceOwners.get(namespace);
    return owners == null ? SpecialGroups.DEFAULT : owners.first();
  }

  /** Why a pod resolving to group {@code name} cannot be charged there, or null. */
  String problemOf(String name) {
    return problemOf(name, parentPods);
  }

  private String problemOf(String name, boolean parentPods) {
    return SpecialGroups.ROOT.equals(name) || (!parentPods && isParent(name))
        ? "pod resolves to parent group " + name + "; only leaf groups are charged for pods"
        : null;
  }

  private boolean isParent(String name) {
    if (SpecialGroups.ROOT.equals(name)) {
      return true;
    }
    if (SpecialGroups.isSpecial(name)) {
      return false;
    }
    final QuotaGroup group = groups.get(name);
    return group != null && group.parentGroup();
  }
}
