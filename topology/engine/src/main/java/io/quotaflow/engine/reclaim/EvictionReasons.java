package io.quotaflow.engine.reclaim;

import io.quotaflow.reason.Reason;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionOutcome;

/**
 * The reason codes ({@link Reason}) of eviction commands and their results, as Events, metric
 * labels and views show them. Codes are read as written: a newer engine may write one this version
 * does not know.
 */
public final class EvictionReasons {
  private EvictionReasons() {}

  /**
   * Why {@code command} evicts its pod: its {@code reasonCode}. A command written before
   * EvictionCommand v4 has none; the engine then wrote over-used dimensions on every reclaim
   * command and none on a reservation's, so those tell the two apart.
   */
  public static String of(final EvictionCommand command) {
    if (!command.getReasonCode().isEmpty()) {
      return command.getReasonCode();
    }
    return command.getDimensionsOver().isEmpty()
        ? Reason.NODE_RESERVED.code()
        : Reason.RECLAIMED_AFTER_DELAY.code();
  }

  /**
   * The reason of the result {@code outcome} of {@code command}: {@code blocked-by-budget} when a
   * disruption budget kept the pod, else why the command was given.
   */
  public static String ofResult(final EvictionCommand command, final EvictionOutcome outcome) {
    return outcome == EvictionOutcome.BLOCKED_BY_BUDGET
        ? Reason.BLOCKED_BY_BUDGET.code()
        : of(command);
  }
}
