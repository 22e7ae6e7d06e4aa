package io.quotaflow.evict;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Tells what an API server's answer to an eviction request means (issue 40). The status code alone
 * does not: a 429 is a disruption budget's refusal (the Eviction API's own answer, its message
 * {@code Cannot evict pod as it would violate the pod's disruption budget.} and a cause of type
 * {@code DisruptionBudget}, no Retry-After) or the API server throttling its clients (priority and
 * fairness, max-in-flight: a Retry-After, no budget), and a 500 is an API server in trouble or the
 * Eviction API refusing a pod that more than one budget covers, which no retry changes.
 */
final class ApiAnswers {

  /** What the answer means for the command. */
  enum Kind {
    /** 2xx: the pod is being evicted. */
    ACCEPTED,
    /** A disruption budget refused: report it, the engine commands the pod again later. */
    BUDGET_REFUSED,
    /** 404: the pod went meanwhile. */
    GONE,
    /** 409: the uid precondition failed, the name belongs to another pod. */
    REPLACED,
    /** The API server could not take the request now (throttled, overloaded, down): retry. */
    UNAVAILABLE,
    /** Refused for good (more than one budget, a 4xx): no retry changes it. */
    FAILED
  }

  /**
   * One classified answer.
   *
   * @param kind what it means
   * @param code the HTTP status (0: no answer)
   * @param retryAfter how long the server asked to wait, when it said
   * @param message what it said, for people
   */
  record Answer(Kind kind, int code, Optional<Duration> retryAfter, String message) {
    Answer {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(retryAfter, "retryAfter");
      Objects.requireNonNull(message, "message");
    }
  }

  static final int TOO_MANY_REQUESTS = 429;

  /**
   * The cause type the Eviction API puts on a budget's refusal ({@code
   * policyv1.DisruptionBudgetCause}).
   */
  private static final String BUDGET_CAUSE = "DisruptionBudget";

  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private ApiAnswers() {}

  /**
   * Classifies an answer.
   *
   * @param code the HTTP status; 0 when no answer came (connection refused, timeout)
   * @param retryAfter the Retry-After header, null when absent
   * @param body the response body, a {@code Status} for an error; may be null or not JSON
   */
  static Answer classify(final int code, final String retryAfter, final String body) {
    final Optional<Status> status = status(body);
    final String message =
        status
            .map(Status::getMessage)
            .filter(text -> !text.isBlank())
            .orElse(body == null ? "" : body.strip());
    final Optional<Duration> wait = retryAfter(retryAfter);
    if (code >= 200 && code < 300) {
      return new Answer(Kind.ACCEPTED, code, wait, message);
    }
    if (code == HttpURLConnection.HTTP_NOT_FOUND) {
      return new Answer(Kind.GONE, code, wait, message);
    }
    if (code == HttpURLConnection.HTTP_CONFLICT) {
      return new Answer(Kind.REPLACED, code, wait, message);
    }
    if (code == TOO_MANY_REQUESTS) {
      return new Answer(
          byBudget(status, message) ? Kind.BUDGET_REFUSED : Kind.UNAVAILABLE, code, wait, message);
    }
    if (code == HttpURLConnection.HTTP_INTERNAL_ERROR && coveredByManyBudgets(message)) {
      return new Answer(Kind.FAILED, code, wait, message);
    }
    if (code == 0 || code >= HttpURLConnection.HTTP_INTERNAL_ERROR) {
      return new Answer(Kind.UNAVAILABLE, code, wait, message);
    }
    return new Answer(Kind.FAILED, code, wait, message);
  }

  /**
   * Whether a 429 comes from a disruption budget: its cause or its message says so. Throttling
   * never carries either (it carries a Retry-After instead).
   */
  private static boolean byBudget(final Optional<Status> status, final String message) {
    final boolean cause =
        status
            .map(Status::getDetails)
            .map(
                details ->
                    details.getCauses() == null ? List.<StatusCause>of() : details.getCauses())
            .orElse(List.of())
            .stream()
            .anyMatch(c -> BUDGET_CAUSE.equals(c.getReason()));
    return cause || message.toLowerCase(Locale.ROOT).contains("disruption budget");
  }

  /**
   * The Eviction API's answer for a pod that more than one PodDisruptionBudget selects: {@code
   * Internal error occurred: This pod has more than one PodDisruptionBudget, which the eviction
   * subresource does not support.}
   */
  private static boolean coveredByManyBudgets(final String message) {
    return message.toLowerCase(Locale.ROOT).contains("more than one poddisruptionbudget");
  }

  private static Optional<Status> status(final String body) {
    if (body == null || body.isBlank() || body.charAt(0) != '{') {
      return Optional.empty();
    }
    try {
      return Optional.ofNullable(JSON.unmarshal(body, Status.class));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Retry-After in seconds, as the API server sends it; an HTTP date is not used. */
  private static Optional<Duration> retryAfter(final String header) {
    if (header == null) {
      return Optional.empty();
    }
    try {
      final long seconds = Long.parseLong(header.strip());
      return seconds >= 0 ? Optional.of(Duration.ofSeconds(seconds)) : Optional.empty();
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
