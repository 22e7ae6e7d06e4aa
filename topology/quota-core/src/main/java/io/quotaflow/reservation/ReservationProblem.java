package io.quotaflow.reservation;

import java.util.Objects;

/**
 * One rule a reservation breaks.
 *
 * @param rule the rule
 * @param field the path of the offending field, e.g. {@code
 *     metadata.annotations[quotaflow.io/reservation].resource[cpu]}
 * @param message for people, with the dimension and the numbers
 */
public record ReservationProblem(ReservationRule rule, String field, String message) {

  public ReservationProblem {
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(message, "message");
  }

  @Override
  public String toString() {
    return rule.id() + " (" + field + "): " + message;
  }
}
