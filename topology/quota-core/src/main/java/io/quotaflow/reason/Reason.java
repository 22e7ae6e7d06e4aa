package io.quotaflow.reason;

import java.util.Optional;

/**
 * Why a pod is denied, pending, classed or evicted: one vocabulary for every place that says so
 * (webhook denials, scheduler-filter failures, eviction commands and results, Kubernetes Events,
 * metrics labels, explanations). The codes are stable: they are matched by alerts and scripts, so a
 * code is never renamed or reused for another meaning; new ones may be added. The table in
 * docs/semantics.md (section 19) lists them.
 */
public enum Reason {
  /** used + in-flight + request would exceed the group's runtime, which is below its max. */
  EXCEEDS_RUNTIME("exceeds-runtime", "the group would use more than its runtime"),
  /** The same, at a group whose runtime is its max: no lending can give it more. */
  EXCEEDS_MAX("exceeds-max", "the group would use more than its max"),
  /** The same, at a group whose ceiling is its min plus its borrowing limit. */
  BORROWING_LIMIT("borrowing-limit", "the group would borrow more than its borrowing limit"),
  /** Non-preemptible pods beyond the group's min (they may not borrow). */
  NON_PREEMPTIBLE_OVER_MIN(
      "non-preemptible-over-min", "non-preemptible pods would use more than the group's min"),
  /** The pod's label names a group its namespace is not bound to. */
  NAMESPACE_NOT_BOUND("namespace-not-bound", "the pod's namespace is not bound to the group"),
  /** The pod's group, or one of its ancestors, breaks a rule of the tree. */
  INVALID_GROUP("invalid-group", "the pod's group or an ancestor is invalid"),
  /** The pod resolves to a group that cannot hold pods (a parent group). */
  PARENT_GROUP("parent-group", "the pod's group is a parent group, which holds no pods"),
  /** No computed status is known yet for the pod's group or an ancestor. */
  UNKNOWN_GROUP("unknown-group", "the pod's group has no computed status yet"),
  /** The pod names a ResourceClaim, template or DeviceClass quotaflow has not read yet. */
  DEVICES_UNKNOWN(
      "devices-unknown", "the pod's claimed devices are not known yet; retry in a few seconds"),
  /** The pod claims devices of a DeviceClass no quota mapping names. */
  DEVICE_CLASS_UNMAPPED(
      "device-class-unmapped", "the pod claims devices of a DeviceClass no quota mapping names"),
  /** The node is outside the node pool of the pod's quota tree. */
  OUTSIDE_POOL("outside-pool", "the node is outside the pod's node pool"),
  /** The node is locked by another group's reservation. */
  NODE_RESERVED("node-reserved", "the node is reserved for another group"),
  /** The pod's group used more than its runtime for the revoke delay; the pod reclaims it. */
  RECLAIMED_AFTER_DELAY(
      "reclaimed-after-delay", "the group stayed over its runtime for the revoke delay"),
  /** A PodDisruptionBudget refused the eviction. */
  BLOCKED_BY_BUDGET("blocked-by-budget", "a disruption budget refused the eviction");

  private final String code;
  private final String summary;

  Reason(String code, String summary) {
    this.code = code;
    this.summary = summary;
  }

  /** The stable code, e.g. {@code exceeds-runtime}: metric labels, events, APIs. */
  public String code() {
    return code;
  }

  /** One line for people. */
  public String summary() {
    return summary;
  }

  /** The reason with {@code code}, if any. */
  public static Optional<Reason> ofCode(String code) {
    for (final Reason reason : values()) {
      if (reason.code.equals(code)) {
        return Optional.of(reason);
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return code;
  }
}
