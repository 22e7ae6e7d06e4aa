package io.quotaflow.dra;

import java.util.Objects;

/**
 * Devices of a pod that quotaflow cannot count (semantics.md section 22.9): the pod names a claim,
 * template or DeviceClass not read yet, or asks a class no mapping names while {@code
 * quota.device.unmapped.class} is {@code deny}. Such devices are never free: admission denies the
 * pod (enforce) and the engine does not honour the pod's {@code preemptible: "false"} until they
 * can be counted.
 *
 * @param kind whether waiting can resolve it
 * @param object what is missing, e.g. {@code ResourceClaim alpha/gpus}
 * @param field where the pod (or its claim) names it
 */
public record Unresolved(Kind kind, String object, String field) {

  /** Why the devices cannot be counted. */
  public enum Kind {
    /** A ResourceClaim, ResourceClaimTemplate or DeviceClass not read yet: retrying may do. */
    NOT_KNOWN,
    /** A DeviceClass known, but no mapping names it and no fallback is configured. */
    UNMAPPED
  }

  public Unresolved {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(object, "object");
    Objects.requireNonNull(field, "field");
  }

  @Override
  public String toString() {
    return field + ": " + object;
  }
}
