package io.quotaflow.admission;

import java.util.Objects;

/**
 * One reason a pod does not fit, with the numbers behind it.
 *
 * @param check which check failed
 * @param group the group where it failed (the pod's group or an ancestor)
 * @param dimension the resource dimension; empty for checks without one
 * @param limit the bound: the group's runtime, or its min for the non-preemptible check
 * @param used what the group's pods hold (non-preemptible pods only for that check)
 * @param inFlight what admissions already granted but not yet seen as used hold
 * @param request what the pod asks for
 * @param detail a reason for checks without numbers; empty otherwise
 */
public record Denial(
    Check check,
    String group,
    String dimension,
    long limit,
    long used,
    long inFlight,
    long request,
    String detail) {

  public Denial {
    Objects.requireNonNull(check, "check");
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(dimension, "dimension");
    Objects.requireNonNull(detail, "detail");
  }

  /** The checks of SPEC 10. */
  public enum Check {
    /** used + in-flight + request must not exceed the runtime. */
    RUNTIME,
    /** For a non-preemptible pod, the same over non-preemptible pods against min. */
    NON_PREEMPTIBLE_MIN,
    /** The pod resolves to a group that cannot hold pods (a parent group). */
    NOT_A_LEAF,
    /** No status is known for the pod's group or one of its ancestors (not computed yet). */
    UNKNOWN_GROUP,
    /** The pod's label names a group its namespace is not bound to (issue 24). */
    NAMESPACE_NOT_BOUND
  }

  /**
   * For people: e.g. "group team-a cpu: used 4000 + in-flight 1000 + request 500 > runtime 5000".
   */
  public String message() {
    return switch (check) {
      case RUNTIME -> numbers("runtime");
      case NON_PREEMPTIBLE_MIN -> numbers("min (non-preemptible)");
      case NOT_A_LEAF, UNKNOWN_GROUP -> "group " + group + ": " + detail;
      case NAMESPACE_NOT_BOUND -> detail;
    };
  }

  private String numbers(String bound) {
    return "group "
        + group
        + " "
        + dimension
        + ": used "
        + used
        + " + in-flight "
        + inFlight
        + " + request "
        + request
        + " > "
        + bound
        + " "
        + limit;
  }
}
