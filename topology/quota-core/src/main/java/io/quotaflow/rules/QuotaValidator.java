package io.quotaflow.rules;

import io.quotaflow.quota.Quantities;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.reservation.ReservationProblem;
import io.quotaflow.reservation.ReservationRule;
import io.quotaflow.reservation.ReservationRules;
import io.quotaflow.rules.Violation.Rule;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.TreeSnapshot;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The validating webhook's rules for ElasticQuota changes (SPEC 9), as a pure function of the
 * proposed change, the current groups and how many pods each group has. Returns every violation,
 * each with its rule, the field and the numbers; an empty list means the change is allowed.
 */
public final class QuotaValidator {

  private static final String PARENT_LABEL =
      "metadata.labels[quota.scheduling.koordinator.sh/parent]";
  private static final String IS_PARENT_LABEL =
      "metadata.labels[quota.scheduling.koordinator.sh/is-parent]";
  private static final String NAMESPACES =
      "metadata.annotations[quota.scheduling.koordinator.sh/namespaces]";

  private QuotaValidator() {}

  /** Pods per group in a snapshot, counting pods that resolve to a group they cannot use. */
  public static Map<String, Integer> podCounts(TreeSnapshot snapshot) {
    final Map<String, Integer> counts = new HashMap<>();
    for (final PodAssignment pod : snapshot.pods()) {
      counts.merge(pod.group(), 1, Integer::sum);
    }
    return counts;
  }

  /**
   * Every rule {@code change} breaks, given the current groups and their pod counts. An update that
   * changes nothing the tree reads ({@link QuotaChange.Update#changesTree()}) breaks none: it
   * leaves the tree as valid or invalid as it was, and denying it would block the writers of
   * runtimes and status (quotaflow's connectors, Koordinator's controllers) on a tree someone else
   * broke.
   */
  public static List<Violation> validate(
      QuotaChange change, Collection<QuotaGroup> current, Map<String, Integer> podsPerGroup) {
    return validate(change, current, podsPerGroup, Optional.empty());
  }

  /**
   * Every rule {@code change} breaks, the node reservation's included (docs/semantics.md section
   * 14): its rules against {@code clusterTotal}, the total the tree shares; without it, a
   * reservation is checked against the group's max only.
   */
  public static List<Violation> validate(
      QuotaChange change,
      Collection<QuotaGroup> current,
      Map<String, Integer> podsPerGroup,
      Optional<ResourceList> clusterTotal) {
    return validate(change, current, new ClusterFacts(podsPerGroup, Map.of(), clusterTotal, false));
  }

  /**
   * Every rule {@code change} breaks, given what the cluster's state says of its groups: pods, used
   * amounts (for {@code max-strict-check-resource-keys}), the cluster total (for reservations) and
   * whether parent groups may own pods.
   */
  public static List<Violation> validate(
      QuotaChange change, Collection<QuotaGroup> current, ClusterFacts facts) {
    final Map<String, Integer> podsPerGroup = facts.podsPerGroup();
    if (change instanceof QuotaChange.Update update && !update.changesTree()) {
      return List.of();
    }
    final Map<String, QuotaGroup> after = new TreeMap<>();
    current.forEach(group -> after.put(group.name(), group));
    final List<Violation> violations = new ArrayList<>();
    final String name = change.name();
    if (SpecialGroups.ROOT.equals(name)) {
      violations.add(
          new Violation(
              Rule.RESERVED_NAME,
              name,
              "metadata.name",
              name + " is the virtual root; it cannot be changed"));
      return violations;
    }
    if (change instanceof QuotaChange.Delete) {
      after.remove(name);
      final List<String> children = childrenOf(name, after);
      if (!children.isEmpty()) {
        violations.add(
            new Violation(
                Rule.DELETE_WITH_CHILDREN,
                name,
                "metadata.name",
                "group has child groups " + children + "; move or delete them first"));
      }
      final int pods = podsPerGroup.getOrDefault(name, 0);
      if (pods > 0) {
        violations.add(
            new Violation(
                Rule.DELETE_WITH_PODS, name, "metadata.name", "group has " + pods + " pods"));
      }
      return violations;
    }
    final QuotaGroup group =
        change instanceof QuotaChange.Create create
            ? create.group()
            : ((QuotaChange.Update) change).updated();
    after.put(name, group);
    checkSpec(group, violations);
    MaxStrictCheck.check(group, facts.used(), violations);
    if (!SpecialGroups.isSpecial(name)) {
      checkParent(group, after, facts, violations);
      checkOwnChildren(group, after, podsPerGroup, violations);
    }
    checkNamespaces(group, after, violations);
    checkReservation(group, facts.clusterTotal(), violations);
    return violations;
  }

  private static void checkReservation(
      QuotaGroup group, Optional<ResourceList> clusterTotal, List<Violation> violations) {
    for (final ReservationProblem problem : ReservationRules.check(group, clusterTotal, 0)) {
      violations.add(
          new Violation(rule(problem.rule()), group.name(), problem.field(), problem.message()));
    }
  }

  private static Rule rule(ReservationRule rule) {
    return switch (rule) {
      case READABLE -> Rule.RESERVATION_READABLE;
      case ON_LEAF -> Rule.RESERVATION_ON_LEAF;
      case PERCENTAGE_IN_RANGE -> Rule.RESERVATION_PERCENTAGE_IN_RANGE;
      case WITHIN_MAX -> Rule.RESERVATION_WITHIN_MAX;
      case WITHIN_CLUSTER -> Rule.RESERVATION_WITHIN_CLUSTER;
    };
  }

  private static void checkSpec(QuotaGroup group, List<Violation> violations) {
    for (final SpecProblem problem : group.problems()) {
      violations.add(
          new Violation(Rule.UNREADABLE_FIELD, group.name(), problem.field(), problem.reason()));
    }
    negatives(group, "spec.min", group.min(), violations);
    negatives(group, "spec.max", group.max(), violations);
    group.sharedWeight().ifPresent(w -> negatives(group, "shared-weight", w, violations));
    group.lendingLimit().ifPresent(l -> negatives(group, "lending-limit", l, violations));
    group.borrowingLimit().ifPresent(b -> negatives(group, "borrowing-limit", b, violations));
    group
        .min()
        .asMap()
        .forEach(
            (dimension, min) -> {
              if (group.max().contains(dimension) && min > group.max().get(dimension)) {
                violations.add(
                    new Violation(
                        Rule.MIN_ABOVE_MAX,
                        group.name(),
                        "spec.min[" + dimension + "]",
                        "min "
                            + Quantities.format(dimension, min)
                            + " is above max "
                            + Quantities.format(dimension, group.max().get(dimension))
                            + " in "
                            + dimension));
              }
            });
  }

  private static void negatives(
      QuotaGroup group, String field, ResourceList list, List<Violation> violations) {
    list.asMap()
        .forEach(
            (dimension, amount) -> {
              if (amount < 0) {
                violations.add(
                    new Violation(
                        Rule.NEGATIVE_VALUE,
                        group.name(),
                        field + "[" + dimension + "]",
                        Quantities.format(dimension, amount) + " is negative"));
              }
            });
  }

  private static void checkParent(
      QuotaGroup group,
      Map<String, QuotaGroup> after,
      ClusterFacts facts,
      List<Violation> violations) {
    final String parentName = parentOf(group);
    if (SpecialGroups.ROOT.equals(parentName)) {
      return;
    }
    final QuotaGroup parent = after.get(parentName);
    if (parent == null && !SpecialGroups.isSpecial(parentName)) {
      violations.add(
          new Violation(
              Rule.PARENT_MISSING,
              group.name(),
              PARENT_LABEL,
              "parent " + parentName + " does not exist"));
      return;
    }
    // The special groups always exist, and are never parents.
    if (SpecialGroups.isSpecial(parentName) || !parent.parentGroup()) {
      violations.add(
          new Violation(
              Rule.PARENT_NOT_A_PARENT,
              group.name(),
              PARENT_LABEL,
              "parent " + parentName + " is not a parent group (is-parent is not \"true\")"));
      return;
    }
    final List<String> path = pathUp(parentName, group.name(), after);
    if (path != null) {
      violations.add(
          new Violation(
              Rule.PARENT_CYCLE,
              group.name(),
              PARENT_LABEL,
              "parent chain returns to the group: " + String.join(" -> ", path)));
      return;
    }
    final int parentPods = facts.podsPerGroup().getOrDefault(parentName, 0);
    // With parent pods allowed (section 18) a parent's own pods stay with it beside its children.
    if (parentPods > 0 && !facts.parentPods()) {
      violations.add(
          new Violation(
              Rule.PARENT_HAS_PODS,
              group.name(),
              PARENT_LABEL,
              "parent "
                  + parentName
                  + " has "
                  + parentPods
                  + " pods; a group with pods holds no child groups"));
    }
    // allow-force-update skips the min sums, as Koordinator's checkMinQuotaValidate (section 16).
    if (!group.allowForceUpdate()) {
      checkChildrenFit(parent, after, violations);
    }
    for (final String dimension : group.min().names()) {
      if (!parent.min().contains(dimension)) {
        violations.add(
            new Violation(
                Rule.CHILD_MIN_NOT_IN_PARENT,
                group.name(),
                "spec.min[" + dimension + "]",
                "parent " + parentName + " has no min for " + dimension));
      }
    }
  }

  /** Rules about the changed group's own children and pods. */
  private static void checkOwnChildren(
      QuotaGroup group,
      Map<String, QuotaGroup> after,
      Map<String, Integer> podsPerGroup,
      List<Violation> violations) {
    final List<String> children = childrenOf(group.name(), after);
    if (!group.parentGroup()) {
      if (!children.isEmpty()) {
        violations.add(
            new Violation(
                Rule.PARENT_WITH_CHILDREN_BECOMES_LEAF,
                group.name(),
                IS_PARENT_LABEL,
                "group has child groups " + children + "; it must stay a parent"));
      }
      return;
    }
    final int pods = podsPerGroup.getOrDefault(group.name(), 0);
    if (pods > 0) {
      violations.add(
          new Violation(
              Rule.LEAF_WITH_PODS_BECOMES_PARENT,
              group.name(),
              IS_PARENT_LABEL,
              "group has " + pods + " pods; it cannot become a parent"));
    }
    if (!children.isEmpty()) {
      if (!group.allowForceUpdate()) {
        checkChildrenFit(group, after, violations);
      }
      for (final String child : children) {
        for (final String dimension : after.get(child).min().names()) {
          if (!group.min().contains(dimension)) {
            violations.add(
                new Violation(
                    Rule.CHILD_MIN_NOT_IN_PARENT,
                    child,
                    "spec.min[" + dimension + "]",
                    "parent " + group.name() + " would have no min for " + dimension));
          }
        }
      }
    }
  }

  /** Below the first level, the children's mins must fit in the parent's min. */
  private static void checkChildrenFit(
      QuotaGroup parent, Map<String, QuotaGroup> after, List<Violation> violations) {
    final List<String> children = childrenOf(parent.name(), after);
    ResourceList sum = ResourceList.empty();
    for (final String child : children) {
      sum = sum.plus(after.get(child).min());
    }
    for (final Map.Entry<String, Long> entry : sum.asMap().entrySet()) {
      if (!parent.min().contains(entry.getKey())) {
        // Reported by the subset rule (CHILD_MIN_NOT_IN_PARENT) instead.
        continue;
      }
      final long parentMin = parent.min().get(entry.getKey());
      if (entry.getValue() > parentMin) {
        violations.add(
            new Violation(
                Rule.CHILD_MINS_EXCEED_PARENT_MIN,
                parent.name(),
                "spec.min[" + entry.getKey() + "]",
                "children "
                    + children
                    + " have mins summing to "
                    + entry.getValue()
                    + " above the parent's min "
                    + parentMin
                    + " in "
                    + entry.getKey()));
      }
    }
  }

  private static void checkNamespaces(
      QuotaGroup group, Map<String, QuotaGroup> after, List<Violation> violations) {
    final Set<String> reported = new HashSet<>();
    for (final String namespace : new TreeSet<>(group.namespaces())) {
      for (final QuotaGroup other : after.values()) {
        if (other.name().equals(group.name())) {
          continue;
        }
        if (other.name().equals(namespace) || other.namespaces().contains(namespace)) {
          reported.add(namespace);
          violations.add(
              new Violation(
                  Rule.NAMESPACE_TAKEN,
                  group.name(),
                  NAMESPACES,
                  "namespace " + namespace + " already belongs to group " + other.name()));
        }
      }
    }
    for (final QuotaGroup other : after.values()) {
      if (!other.name().equals(group.name())
          && other.namespaces().contains(group.name())
          && !reported.contains(group.name())) {
        violations.add(
            new Violation(
                Rule.NAMESPACE_TAKEN,
                group.name(),
                "metadata.name",
                "namespace "
                    + group.name()
                    + " (the group's own name) already belongs to group "
                    + other.name()));
      }
    }
  }

  private static String parentOf(QuotaGroup group) {
    return group.parent().isEmpty() ? SpecialGroups.ROOT : group.parent();
  }

  private static List<String> childrenOf(String name, Map<String, QuotaGroup> groups) {
    final List<String> children = new ArrayList<>();
    for (final QuotaGroup group : groups.values()) {
      if (!group.name().equals(name)
          && !SpecialGroups.isSpecial(group.name())
          && parentOf(group).equals(name)) {
        children.add(group.name());
      }
    }
    return children;
  }

  /** The chain from {@code start} up to {@code target}, or null when it does not get there. */
  private static List<String> pathUp(String start, String target, Map<String, QuotaGroup> groups) {
    final List<String> path = new ArrayList<>();
    path.add(target);
    final Set<String> seen = new HashSet<>();
    String current = start;
    while (current != null && seen.add(current)) {
      path.add(current);
      if (current.equals(target)) {
        return path;
      }
      final QuotaGroup group = groups.get(current);
      current = group == null ? null : parentOf(group);
    }
    return null;
  }
}
