package io.quotaflow.admission.state;

/** The cluster state cannot be read right now (a rebalance moves it, the stores are restoring). */
public final class StateUnavailableException extends RuntimeException {

  /** With a reason for people. */
  public StateUnavailableException(String reason, Throwable cause) {
    super(reason, cause);
  }

  /** With a reason for people. */
  public StateUnavailableException(String reason) {
    super(reason);
  }
}
