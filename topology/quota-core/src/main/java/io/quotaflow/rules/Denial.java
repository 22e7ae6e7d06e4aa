package io.quotaflow.rules;

import io.quotaflow.quota.Quantities;
import io.quotaflow.reason.Reason;
import java.util.Objects;
import java.util.Optional;

/**
 * One reason a pod does not fit, with the numbers behind it.
 *
 * @param check which check failed
 * @param reason the code people, scripts and metrics see (docs/semantics.md section 19)
 * @param group the group where it failed (the pod's group or an ancestor)
 * @param dimension the resource dimension; empty for checks without one
 * @param limit the bound: the group's runtime, or its min for the non-preemptible check
 * @param used what the group's pods hold (non-preemptible pods only for that check)
 * @param inFlight what admissions already granted but not yet seen as used hold
 * @param request what the pod asks for
 * @param detail a reason for checks without numbers; for a check with numbers, what the request
 *     stands for when it is not one pod's (a gang's, {@link GangAdmission}), empty otherwise
 */
public record Denial(
    Check check,
    Reason reason,
    String group,
    String dimension,
    long limit,
    long used,
    long inFlight,
    long request,
    String detail) {

  public Denial {
    Objects.requireNonNull(check, "check");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(dimension, "dimension");
    Objects.requireNonNull(detail, "detail");
  }

  /**
   * A denial of a check whose reason is always the same.
   *
   * @throws IllegalArgumentException for {@link Check#RUNTIME}, whose reason depends on the limit
   *     the runtime sits at
   */
  public Denial(
      Check check,
      String group,
      String dimension,
      long limit,
      long used,
      long inFlight,
      long request,
      String detail) {
    this(
        check,
        check
            .reason()
            .orElseThrow(() -> new IllegalArgumentException("a runtime denial needs its reason")),
        group,
        dimension,
        limit,
        used,
        inFlight,
        request,
        detail);
  }

  /** The checks of SPEC 10. */
  public enum Check {
    /**
     * used + in-flight + request must not exceed the runtime; its reason depends on the limit the
     * runtime sits at ({@link RuntimeLimit}).
     */
    RUNTIME(null),
    /** For a non-preemptible pod, the same over non-preemptible pods against min. */
    NON_PREEMPTIBLE_MIN(Reason.NON_PREEMPTIBLE_OVER_MIN),
    /** The pod resolves to a group that cannot hold pods (a parent group). */
    NOT_A_LEAF(Reason.PARENT_GROUP),
    /** No status is known for the pod's group or one of its ancestors (not computed yet). */
    UNKNOWN_GROUP(Reason.UNKNOWN_GROUP),
    /** The pod's label names a group its namespace is not bound to (issue 24). */
    NAMESPACE_NOT_BOUND(Reason.NAMESPACE_NOT_BOUND),
    /** The pod's claimed devices cannot be counted yet (docs/semantics.md section 22.9). */
    DEVICES_UNKNOWN(Reason.DEVICES_UNKNOWN),
    /** The pod claims devices of a class no mapping names, and no fallback is set. */
    DEVICE_CLASS_UNMAPPED(Reason.DEVICE_CLASS_UNMAPPED);

    private final Reason reason;

    Check(Reason reason) {
      this.reason = reason;
    }

    /** The reason a denial of this check always has; empty for {@link #RUNTIME}. */
    public Optional<Reason> reason() {
      return Optional.ofNullable(reason);
    }
  }

  /**
   * For people and scripts alike: the reason's code, then the numbers as Kubernetes quantities,
   * e.g. "exceeds-runtime: group team-a cpu: used 4 + in-flight 1 + request 500m > runtime 5".
   */
  public String message() {
    return reason.code() + ": " + explanation();
  }

  private String explanation() {
    return switch (check) {
      case RUNTIME -> whose() + numbers("runtime");
      case NON_PREEMPTIBLE_MIN -> whose() + numbers("min (non-preemptible)");
      case NOT_A_LEAF, UNKNOWN_GROUP -> "group " + group + ": " + detail;
      case NAMESPACE_NOT_BOUND, DEVICES_UNKNOWN, DEVICE_CLASS_UNMAPPED -> detail;
    };
  }

  /** What the request stands for, when it is not one pod's: "gang g needs 8 pods of cpu 1: ". */
  private String whose() {
    return detail.isEmpty() ? "" : detail + ": ";
  }

  private String numbers(String bound) {
    return "group "
        + group
        + " "
        + dimension
        + ": used "
        + Quantities.format(dimension, used)
        + " + in-flight "
        + Quantities.format(dimension, inFlight)
        + " + request "
        + Quantities.format(dimension, request)
        + " > "
        + bound
        + " "
        + Quantities.format(dimension, limit);
  }
}
