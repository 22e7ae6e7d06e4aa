package io.quotaflow.quota;

/** The Kubernetes pod phases; {@link #UNKNOWN} also stands for a phase quotaflow does not know. */
public enum PodPhase {
  PENDING,
  RUNNING,
  SUCCEEDED,
  FAILED,
  UNKNOWN;

  /** Succeeded and Failed pods hold nothing: they count neither as request nor as used. */
  public boolean isFinished() {
    return this == SUCCEEDED || this == FAILED;
  }
}
