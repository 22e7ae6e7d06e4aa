package io.quotaflow.status;

import java.util.Objects;

/**
 * Where the status writer shows a group's runtime: on Koordinator's annotations and {@code
 * status.used} when quotaflow is in charge, or on quotaflow's own annotations only when it runs in
 * shadow beside Koordinator, whose values must stay untouched to be compared.
 */
public enum StatusMode {

  /** Koordinator's {@code runtime} and {@code request} annotations, and {@code status.used}. */
  KOORDINATOR(QuotaStatus.RUNTIME_ANNOTATION, QuotaStatus.REQUEST_ANNOTATION, true),

  /** {@code quotaflow.io/runtime} and {@code quotaflow.io/request} only; never the status. */
  SHADOW("quotaflow.io/runtime", "quotaflow.io/request", false);

  private final String runtimeAnnotation;
  private final String requestAnnotation;
  private final boolean writesStatus;

  StatusMode(
      final String runtimeAnnotation, final String requestAnnotation, final boolean writesStatus) {
    this.runtimeAnnotation = Objects.requireNonNull(runtimeAnnotation);
    this.requestAnnotation = Objects.requireNonNull(requestAnnotation);
    this.writesStatus = writesStatus;
  }

  /** The annotation that shows the group's runtime. */
  public String runtimeAnnotation() {
    return runtimeAnnotation;
  }

  /** The annotation that shows the group's request. */
  public String requestAnnotation() {
    return requestAnnotation;
  }

  /** Whether {@code status.used} is written. */
  public boolean writesStatus() {
    return writesStatus;
  }
}
