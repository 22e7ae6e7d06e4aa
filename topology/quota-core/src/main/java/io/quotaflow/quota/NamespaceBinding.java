package io.quotaflow.quota;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which namespaces' pods may be charged to a group by naming it in their quota-name label (issue
 * 24), as Kueue binds a LocalQueue's namespace to a ClusterQueue. A group admits the pods of the
 * namespace of its ElasticQuota, of the namespaces its namespaces annotation lists, and of the
 * namespaces its namespace selector selects. The namespace named like the group binds labels only
 * when {@code namesakeBinds} (issue 39: anyone who may create a namespace could otherwise join any
 * team; it still owns its unlabelled pods, SPEC 4). The special groups (system, default) admit only
 * the namespaces configured for them. A label naming a group that does not admit the pod's
 * namespace is ignored (the pod resolves as if unlabelled) and the pod webhook denies such a pod.
 *
 * <p>A group whose namespace is unknown (a record written before the connectors sent it) admits no
 * namespace but those it lists or selects, unless {@code unknownNamespaceAdmitsAll} (issue 39).
 * {@code open} keeps Koordinator's behaviour, where the label alone decides, for shadow mode and
 * migration.
 *
 * @param open whether the label alone decides (Koordinator's behaviour)
 * @param specialGroupNamespaces the namespaces whose pods may name the system or default group
 * @param namesakeBinds whether the namespace named like a group binds labels to it
 * @param unknownNamespaceAdmitsAll whether a group whose ElasticQuota namespace is unknown admits
 *     every namespace (the behaviour before issue 39)
 */
public record NamespaceBinding(
    boolean open,
    Set<String> specialGroupNamespaces,
    boolean namesakeBinds,
    boolean unknownNamespaceAdmitsAll) {

  /** The namespaces whose pods may name the special groups unless configured: the cluster's own. */
  public static final Set<String> DEFAULT_SPECIAL_GROUP_NAMESPACES =
      Set.of("kube-system", "quotaflow");

  /** Binding enforced, the special groups open to kube-system and quotaflow. */
  public static final NamespaceBinding STRICT =
      new NamespaceBinding(false, DEFAULT_SPECIAL_GROUP_NAMESPACES);

  /** Koordinator's behaviour: the label alone decides. */
  public static final NamespaceBinding OPEN =
      new NamespaceBinding(true, DEFAULT_SPECIAL_GROUP_NAMESPACES);

  /** Copies the set. */
  public NamespaceBinding {
    specialGroupNamespaces =
        Set.copyOf(Objects.requireNonNull(specialGroupNamespaces, "specialGroupNamespaces"));
  }

  /**
   * Neither the namespace named like a group binding labels nor a group of unknown namespace
   * admitting every namespace (issue 39; the settings turn each on).
   */
  public NamespaceBinding(boolean open, Set<String> specialGroupNamespaces) {
    this(open, specialGroupNamespaces, false, false);
  }

  /** This binding, the namespace named like a group binding labels when {@code value}. */
  public NamespaceBinding withNamesakeBinds(boolean value) {
    return new NamespaceBinding(open, specialGroupNamespaces, value, unknownNamespaceAdmitsAll);
  }

  /** This binding, a group of unknown namespace admitting every namespace when {@code value}. */
  public NamespaceBinding withUnknownNamespaceAdmitsAll(boolean value) {
    return new NamespaceBinding(open, specialGroupNamespaces, namesakeBinds, value);
  }

  /**
   * Why a pod of {@code namespace} may not be charged to group {@code name} by its label; empty
   * when it may.
   *
   * @param group the group's specification; empty for a special group without an ElasticQuota
   */
  public Optional<String> refusal(String name, Optional<QuotaGroup> group, String namespace) {
    if (admits(name, group.orElse(null), namespace)) {
      return Optional.empty();
    }
    if (isSpecial(name)) {
      return Optional.of(
          "quota group "
              + name
              + " admits only the pods of namespaces "
              + String.join(", ", new TreeSet<>(specialGroupNamespaces))
              + ", not of namespace "
              + namespace);
    }
    if (name.equals(namespace)) {
      // Issue 39: the namespace named like a group binds no labels unless namesakeBinds.
      return Optional.of(
          "namespace "
              + namespace
              + " is not bound to quota group "
              + name
              + " by its name (quota.namespace.binding.namesake is off): leave the label out, an"
              + " unlabelled pod of namespace "
              + namespace
              + " is charged to the group named like it, or create the pod in a namespace bound"
              + " to it");
    }
    return Optional.of(
        "namespace "
            + namespace
            + " is not bound to quota group "
            + name
            + (group.get().namespace().isEmpty()
                ? " (the namespace of its ElasticQuota is not known yet)"
                : " (its ElasticQuota is in namespace " + group.get().namespace() + ")")
            + ": list "
            + namespace
            + " in the group's quota.scheduling.koordinator.sh/namespaces annotation (or label it"
            + " to match the group's quotaflow.io/namespace-selector), or create the pod in a"
            + " namespace bound to it");
  }

  /**
   * Whether a pod of {@code namespace} may be charged to group {@code name} by its label.
   *
   * @param group the group's specification; null for a special group without an ElasticQuota
   */
  public boolean admits(String name, QuotaGroup group, String namespace) {
    if (open) {
      return true;
    }
    if (isSpecial(name)) {
      return specialGroupNamespaces.contains(namespace);
    }
    return group == null || admits(group, namespace);
  }

  private static boolean isSpecial(String name) {
    return SpecialGroups.SYSTEM.equals(name) || SpecialGroups.DEFAULT.equals(name);
  }

  private boolean admits(QuotaGroup group, String namespace) {
    return (unknownNamespaceAdmitsAll && group.namespace().isEmpty())
        || group.namespace().equals(namespace)
        || (namesakeBinds && group.name().equals(namespace))
        || group.namespaces().contains(namespace)
        || group.selectedNamespaces().contains(namespace);
  }
}
