package io.quotaflow.admission.machine;

import java.util.Locale;

/** What the webhooks and the scheduler filter do with a pod or quota change that breaks a rule. */
public enum AdmissionMode {
  /** Deny it. */
  ENFORCE,
  /** Allow it, with an admission warning naming what it breaks (the filter passes every node). */
  WARN,
  /** Allow everything without looking. */
  OFF;

  /** The name as configured: {@code enforce}, {@code warn} or {@code off}. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }
}
