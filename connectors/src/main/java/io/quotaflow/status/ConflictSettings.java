package io.quotaflow.status;

import java.time.Duration;
import java.util.Objects;

/**
 * When the status writer gives way to another writer of the same fields (Koordinator's controller
 * left on): an object whose written fields were changed back by someone else {@code overwrites}
 * times within {@code window} is in conflict, and is not written again for {@code backoff}, doubled
 * after each further overwrite up to {@code maxBackoff}. A retry write that stands for one {@code
 * backoff} ends the conflict.
 *
 * @param overwrites overwrites of one object within the window that put it in conflict
 * @param window how far back overwrites are counted
 * @param backoff the first wait before an object in conflict is written again; also how long a
 *     retry write must stand to end the conflict
 * @param maxBackoff the longest wait
 */
public record ConflictSettings(
    int overwrites, Duration window, Duration backoff, Duration maxBackoff) {

  /** Validates the values. */
  public ConflictSettings {
    Objects.requireNonNull(window, "window");
    Objects.requireNonNull(backoff, "backoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    if (overwrites < 1) {
      throw new IllegalArgumentException(
          "status.conflict.overwrites must be at least 1: " + overwrites);
    }
    if (window.isNegative() || window.isZero() || backoff.isNegative() || backoff.isZero()) {
      throw new IllegalArgumentException(
          "status.conflict.window and status.conflict.backoff must be positive: "
              + window
              + ", "
              + backoff);
    }
    if (maxBackoff.compareTo(backoff) < 0) {
      throw new IllegalArgumentException(
          "status.conflict.backoff.max must be at least status.conflict.backoff: "
              + maxBackoff
              + " < "
              + backoff);
    }
  }

  /** 3 overwrites in 5 minutes; back off 1 minute, doubling up to 30 minutes. */
  public static ConflictSettings defaults() {
    return new ConflictSettings(
        3, Duration.ofMinutes(5), Duration.ofMinutes(1), Duration.ofMinutes(30));
  }

  /**
   * The wait after the {@code level}-th overwrite of an object in conflict (0 when it enters):
   * {@code backoff * 2^level}, at most {@code maxBackoff}.
   */
  public Duration backoff(final int level) {
    if (level < 0) {
      throw new IllegalArgumentException("level must not be negative: " + level);
    }
    Duration wait = backoff;
    for (int i = 0; i < level && wait.compareTo(maxBackoff) < 0; i++) {
      wait = wait.multipliedBy(2);
    }
    return wait.compareTo(maxBackoff) < 0 ? wait : maxBackoff;
  }
}
