package io.quotaflow.admission.people.whatif;

/** A what-if request that cannot be computed as asked; its message says why, for people. */
public final class WhatIfException extends Exception {

  private static final long serialVersionUID = 1L;

  /** A request rejected for {@code message}. */
  public WhatIfException(String message) {
    super(message);
  }
}
