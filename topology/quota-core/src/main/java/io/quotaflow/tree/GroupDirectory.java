package io.quotaflow.tree;

import io.quotaflow.quota.NamespaceBinding;
import io.quotaflow.quota.NonLeafLabels;
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
 * leaf group (or a parent group, when parent groups may own pods) that admits the pod's namespace
 * ({@link NamespaceBinding}), else a group named like the namespace, else a group listing the
 * namespace, else the default group. A label naming the root or a parent group is ignored like an
 * unbound one (issue 39). A pod whose namespace resolves to a parent group while parent groups may
 * not own pods (docs/semantics.md section 18) gets a problem instead of being charged.
 *
 * <p>The system and default groups always exist, with or without an ElasticQuota object. Mutable
 * and not thread-safe; {@link #of} builds one for a one-off lookup.
 */
public final class GroupDirectory {

  private final Map<String, QuotaGroup> groups;
  private final Map<String, TreeSet<String>> namespaceOwners = new HashMap<>();
  private final boolean parentPods;
  private final NamespaceBinding binding;

  /** A directory in which only leaf groups are charged for pods (Koordinator's default). */
  public GroupDirectory() {
    this(false);
  }

  /** A directory resolving pods as {@code options} say (parent pods, namespace binding). */
  public GroupDirectory(QuotaOptions options) {
    this(options.parentPods(), 0, options.namespaceBinding());
  }

  /**
   * A directory in which parent groups own the pods that resolve to them when {@code parentPods}
   * (Koordinator's SupportParentQuotaSubmitPod).
   */
  public GroupDirectory(boolean parentPods) {
    this(parentPods, 0, NamespaceBinding.STRICT);
  }

  /**
   * As {@link #GroupDirectory(boolean)}, sized for about {@code expectedGroups} groups, labels
   * honoured as {@code binding} says.
   */
  GroupDirectory(boolean parentPods, int expectedGroups, NamespaceBinding binding) {
    this.parentPods = parentPods;
    this.binding = binding;
    this.groups = new HashMap<>(Math.max(16, expectedGroups * 4 / 3 + 1));
  }

  /**
   * The group a pod resolves to; {@code problem} is set when it cannot be charged there, {@code
   * unbound} when its label names a group that does not admit its namespace (it is then charged as
   * if unlabelled, and the pod webhook denies it).
   */
  public record Target(String group, Optional<String> problem, Optional<String> unbound) {

    public Target(String group, Optional<String> problem) {
      this(group, problem, Optional.empty());
    }
  }

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
    return resolve(pod, parentPods, binding);
  }

  /** {@link #resolve(QuotaPod)}, parent groups owning pods when {@code parentPods}. */
  public Target resolve(QuotaPod pod, boolean parentPods) {
    return resolve(pod, parentPods, binding);
  }

  /** {@link #resolve(QuotaPod)} as {@code options} say, whatever this directory was built with. */
  public Target resolve(QuotaPod pod, QuotaOptions options) {
    return resolve(pod, options.parentPods(), options.namespaceBinding());
  }

  private Target resolve(QuotaPod pod, boolean parentPods, NamespaceBinding binding) {
    final Optional<String> unbound = unbound(pod, binding, parentPods);
    final String name = groupOf(pod, binding, parentPods);
    return new Target(name, Optional.ofNullable(problemOf(name, parentPods)), unbound);
  }

  /**
   * Why {@code pod}'s label is ignored (it is then charged as if unlabelled): the label names the
   * root, a group that does not admit the pod's namespace, or a parent group while parent groups
   * may not own pods (issue 39: such a label was charged nowhere). Empty when the label is
   * honoured, when there is none, and when it names no group (the pod moves to that group once it
   * appears).
   */
  private Optional<String> unbound(QuotaPod pod, NamespaceBinding binding, boolean parentPods) {
    final String label = pod.quotaName().orElse("");
    if (label.isEmpty()) {
      return Optional.empty();
    }
    final Optional<String> notALeaf = notALeaf(label, parentPods);
    if (notALeaf.isPresent() || !exists(label)) {
      return notALeaf;
    }
    return binding.refusal(label, group(label), pod.ref().namespace());
  }

  /**
   * Why a pod's label may not charge it to group {@code label}: the root never owns pods, a parent
   * group only when {@code parentPods}. Empty for any other name, existing or not.
   */
  public Optional<String> notALeaf(String label, boolean parentPods) {
    return SpecialGroups.ROOT.equals(label) || (!parentPods && isParent(label))
        ? Optional.of(NonLeafLabels.refusal(label))
        : Optional.empty();
  }

  /** Why {@code pod}'s label is ignored as this directory's binding says, or null. */
  String unboundOf(QuotaPod pod) {
    return unbound(pod, binding, parentPods).orElse(null);
  }

  /**
   * Whether {@code pod}'s label may charge it to the group it names, {@code named} (null for a
   * special group without an ElasticQuota), as this directory's binding says.
   */
  boolean admitsLabel(QuotaPod pod, QuotaGroup named) {
    return binding.admits(pod.quotaName().orElse(""), named, pod.ref().namespace());
  }

  /** Whether a pod's label naming parent group {@code label} is honoured: only with parent pods. */
  boolean parentPods() {
    return parentPods;
  }

  /** The name of the group a pod resolves to, whether it can be charged there or not. */
  String groupOf(QuotaPod pod) {
    return groupOf(pod, binding, parentPods);
  }

  /** How a pod found its group (issue 27: explanations). */
  public enum ResolvedBy {
    /** Its quota-name label, honoured for its namespace. */
    LABEL,
    /** Its namespace is named like the group. */
    NAMESPACE_NAME,
    /** The group's namespaces annotation lists its namespace (the first such group by name). */
    NAMESPACES_ANNOTATION,
    /** Nothing names a group for it: the default group. */
    DEFAULT
  }

  /** How {@code pod} finds the group {@link #resolve(QuotaPod, QuotaOptions)} gives it. */
  public ResolvedBy resolvedBy(QuotaPod pod, QuotaOptions options) {
    if (honoursLabel(pod, options.namespaceBinding(), options.parentPods())) {
      return ResolvedBy.LABEL;
    }
    final String namespace = pod.ref().namespace();
    if (exists(namespace)) {
      return ResolvedBy.NAMESPACE_NAME;
    }
    return namespaceOwners.containsKey(namespace)
        ? ResolvedBy.NAMESPACES_ANNOTATION
        : ResolvedBy.DEFAULT;
  }

  /** The group a pod resolves to, its label honoured as {@code binding} says. */
  private String groupOf(QuotaPod pod, NamespaceBinding binding, boolean parentPods) {
    if (honoursLabel(pod, binding, parentPods)) {
      return pod.quotaName().orElseThrow();
    }
    final String namespace = pod.ref().namespace();
    if (exists(namespace)) {
      return namespace;
    }
    final TreeSet<String> owners = namespaceOwners.get(namespace);
    return owners == null ? SpecialGroups.DEFAULT : owners.first();
  }

  /** Whether {@code pod}'s label names a group that exists and may charge it (see unbound). */
  private boolean honoursLabel(QuotaPod pod, NamespaceBinding binding, boolean parentPods) {
    final String label = pod.quotaName().orElse("");
    return !label.isEmpty()
        && exists(label)
        && notALeaf(label, parentPods).isEmpty()
        && binding.admits(label, groups.get(label), pod.ref().namespace());
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
