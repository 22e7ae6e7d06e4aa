package io.quotaflow.simulate;

import java.util.List;

/**
 * The fields of {@code simulate --output json}, in the documented order (docs/simulate.md): the
 * format that the simulate tests pin and that the plugin's query API answers in too.
 */
public final class SimulateJsonFields {

  /** The fields of the whole answer. */
  public static final List<String> TOP = List.of("total", "quotas", "pods");

  /** The fields of a quota object. */
  public static final List<String> QUOTA =
      List.of(
          "name",
          "parent",
          "isParent",
          "valid",
          "reason",
          "min",
          "scaledMin",
          "max",
          "sharedWeight",
          "request",
          "limitedRequest",
          "used",
          "runtime");

  /** The fields of a quota's {@code reservation} object, present only for a reserving group. */
  public static final List<String> RESERVATION =
      List.of("nodes", "satisfied", "idle", "policy", "valid", "reason", "target", "minNodes");

  /** The fields of a pod object. */
  public static final List<String> POD = List.of("namespace", "name", "group", "class");

  private SimulateJsonFields() {}
}
