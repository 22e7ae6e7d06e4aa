package io.quotaflow.rules;

import java.util.Objects;

/**
 * One rule a proposed ElasticQuota change breaks (SPEC 9).
 *
 * @param rule the rule
 * @param group the group the rule is checked on (the changed group or a related one)
 * @param field the path of the offending field, e.g. {@code spec.min[cpu]}
 * @param message for people, with the numbers
 */
public record Violation(Rule rule, String group, String field, String message) {

  public Violation {
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(message, "message");
  }

  /** The webhook rules; {@link #id()} is stable and safe to show and match on. */
  public enum Rule {
    UNREADABLE_FIELD("unreadable-field"),
    NEGATIVE_VALUE("non-negative"),
    MIN_ABOVE_MAX("min-not-above-max"),
    MAX_NOT_BELOW_USED("max-not-below-used"),
    RESERVED_NAME("reserved-name"),
    PARENT_MISSING("parent-exists"),
    PARENT_NOT_A_PARENT("parent-is-parent"),
    PARENT_CYCLE("no-parent-cycle"),
    PARENT_HAS_PODS("parent-has-no-pods"),
    LEAF_WITH_PODS_BECOMES_PARENT("group-with-pods-stays-leaf"),
    PARENT_WITH_CHILDREN_BECOMES_LEAF("group-with-children-stays-parent"),
    DELETE_WITH_CHILDREN("delete-without-children"),
    DELETE_WITH_PODS("delete-without-pods"),
    CHILD_MINS_EXCEED_PARENT_MIN("children-mins-fit-parent-min"),
    CHILD_MIN_NOT_IN_PARENT("child-min-dimensions-in-parent"),
    NAMESPACE_TAKEN("namespace-in-one-group"),
    RESERVATION_READABLE("reservation-readable"),
    RESERVATION_ON_LEAF("reservation-on-leaf"),
    RESERVATION_PERCENTAGE_IN_RANGE("reservation-percentage-in-range"),
    RESERVATION_WITHIN_MAX("reservation-within-max"),
    RESERVATION_WITHIN_CLUSTER("reservation-within-cluster");

    private final String id;

    Rule(String id) {
      this.id = id;
    }

    public String id() {
      return id;
    }
  }

  @Override
  public String toString() {
    return rule.id() + " (" + group + " " + field + "): " + message;
  }
}
