package io.quotaflow.source;

import java.util.Locale;

/**
 * Whether the source watches the Dynamic Resource Allocation objects (DeviceClasses,
 * ResourceClaims, ResourceClaimTemplates, ResourceSlices in resource.k8s.io/v1) that charge pods
 * the devices of their claims (setting {@code source.dra}, docs/semantics.md section 22).
 */
public enum DraWatch {
  /**
   * Each kind the cluster serves in resource.k8s.io/v1 (asked at start, by API discovery); a
   * cluster without it is not watched and its DRA topics get no record. A discovery that fails is
   * asked again until it answers.
   */
  AUTO,
  /** Every kind, served or not: a missing API shows as a watch down, as for any other kind. */
  ALWAYS,
  /** None: claims charge nothing. */
  NEVER;

  /**
   * {@code auto}, {@code true} or {@code false}, any case.
   *
   * @throws IllegalArgumentException for anything else
   */
  public static DraWatch parse(final String value) {
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "auto" -> AUTO;
      case "true" -> ALWAYS;
      case "false" -> NEVER;
      default ->
          throw new IllegalArgumentException("expected auto, true or false, got \"" + value + "\"");
    };
  }
}
