package io.quotaflow.admission.state;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * How old the state an answer was given from is: read from the stores at {@code asOf}, {@code age}
 * before the answer.
 *
 * @param asOf when the state was read from the engine's stores
 * @param age how long before the answer that was
 */
public record Staleness(Instant asOf, Duration age) {

  /** Requires both parts. */
  public Staleness {
    Objects.requireNonNull(asOf, "asOf");
    Objects.requireNonNull(age, "age");
  }

  /** The staleness at {@code now} of a state read at {@code asOf}; never negative. */
  public static Staleness at(Instant asOf, Instant now) {
    final Duration age = Duration.between(asOf, now);
    return new Staleness(asOf, age.isNegative() ? Duration.ZERO : age);
  }

  /** For people: {@code as of 2026-03-01T12:00:00Z, 1234 ms old}. */
  public String describe() {
    return "as of " + asOf + ", " + age.toMillis() + " ms old";
  }
}
