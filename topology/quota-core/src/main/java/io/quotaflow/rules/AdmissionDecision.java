package io.quotaflow.rules;

import java.util.List;
import java.util.Optional;

/**
 * The answer to one admission request: allowed with the in-flight hold to keep until the pod is
 * seen as used, or denied with every reason.
 */
public record AdmissionDecision(List<Denial> denials, Optional<InFlight.Hold> hold) {

  public AdmissionDecision {
    denials = List.copyOf(denials);
    if (denials.isEmpty() == hold.isEmpty()) {
      throw new IllegalArgumentException("an allowed decision has a hold, a denial none");
    }
  }

  public boolean allowed() {
    return denials.isEmpty();
  }

  /** All denial messages joined, for an AdmissionReview status. */
  public String message() {
    return String.join("; ", denials.stream().map(Denial::message).toList());
  }
}
