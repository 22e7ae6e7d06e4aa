package io.quotaflow.admission.machine;

import io.quotaflow.admission.endpoint.Answer;
import java.util.List;

/** The answers of the failure policy, worded the same on every endpoint. */
public final class FailureAnswers {

  private FailureAnswers() {}

  /** Why nothing was checked, for people. */
  public static String reason(String cluster, String reason) {
    return "quotaflow could not check the quota of cluster " + cluster + ": " + reason;
  }

  /** An AdmissionReview answer per {@code policy}. */
  public static Answer review(FailurePolicy policy, String uid, String cluster, String reason) {
    final String message = reason(cluster, reason);
    if (policy == FailurePolicy.FAIL_OPEN) {
      return Answer.json(
          200,
          AdmissionReviews.allowed(uid, List.of(message + " (allowed: failure policy fail-open)")),
          "fail-open");
    }
    return Answer.json(
        200,
        AdmissionReviews.denied(
            uid,
            503,
            "ServiceUnavailable",
            message + " (denied: failure policy fail-closed; retry shortly)"),
        "fail-closed");
  }
}
