package io.quotaflow.evict;

import io.quotaflow.schemas.EvictionOutcome;
import java.util.Objects;

/**
 * What became of one eviction command.
 *
 * @param outcome the outcome reported in the result record
 * @param message what happened, for people
 * @param attempts eviction requests sent (0 when none was needed)
 */
record Verdict(EvictionOutcome outcome, String message, int attempts) {
  Verdict {
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(message, "message");
  }
}
