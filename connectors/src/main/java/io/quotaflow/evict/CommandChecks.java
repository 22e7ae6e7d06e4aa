package io.quotaflow.evict;

import io.quotaflow.cluster.InputGaps;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionOutcome;
import io.quotaflow.schemas.PodKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The checks a command passes before it goes to its cluster's worker: not too old ({@code
 * EXPIRED}), not decided on inputs that may have missed changes ({@code STALE}). Neither sends a
 * request, and neither is one of the pod's attempts.
 */
final class CommandChecks {

  private final Duration maxAge;
  private final Clock clock;
  private volatile InputGaps inputGaps = InputGaps.NONE;

  CommandChecks(final Duration maxAge, final Clock clock) {
    this.maxAge = Objects.requireNonNull(maxAge, "maxAge");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * The verdict refusing {@code command} without a request; empty when it is to be carried out.
   *
   * @param appendedAt when the broker appended the command's record, epoch milliseconds, on an
   *     evictions topic with log-append time; negative when unknown (the topic's default)
   */
  Optional<Verdict> refusal(
      final PodKey key, final EvictionCommand command, final long appendedAt) {
    return expiry(command).or(() -> staleness(key, command, appendedAt));
  }

  /** The verdict for a command too old to carry out now; empty for any other. */
  private Optional<Verdict> expiry(final EvictionCommand command) {
    final Duration age = Duration.between(command.getIssuedAt(), clock.instant());
    if (age.compareTo(maxAge) <= 0) {
      return Optional.empty();
    }
    return Optional.of(
        new Verdict(
            EvictionOutcome.EXPIRED,
            "not carried out: issued "
                + readable(age)
                + " ago, older than the maximum age of "
                + readable(maxAge)
                + " (eviction.max.age)",
            0));
  }

  /**
   * Asks {@code gaps} before each command whether the engine's picture of its cluster may have
   * missed changes since the command was decided (the source beside this executor knows); such a
   * command is refused {@code STALE}. Without it only the command's age is checked.
   */
  void checkInputsWith(final InputGaps gaps) {
    this.inputGaps = Objects.requireNonNull(gaps, "gaps");
  }

  /**
   * The verdict for a command decided on inputs that may have missed changes of its cluster (a
   * watch down, a lost write, a relist since): not carried out, and not one of the pod's attempts,
   * since the engine decides again once its inputs are whole.
   */
  private Optional<Verdict> staleness(
      final PodKey key, final EvictionCommand command, final long appendedAt) {
    return inputGaps
        .staleness(key.getCluster(), decidedAt(command, appendedAt))
        .map(
            why ->
                new Verdict(
                    EvictionOutcome.STALE,
                    "not carried out: the inputs it was decided on may be incomplete: " + why,
                    0));
  }

  /**
   * When {@code command} was decided, by the broker's clock at most (issue 40): its stamp (the
   * engine's clock), never later than the time its record was appended when the broker stamped it,
   * so an engine clock ahead does not place a decision taken before a relist after it. The relists
   * it is compared with are timed by the broker too ({@code RelistStart}).
   */
  static Instant decidedAt(final EvictionCommand command, final long appendedAt) {
    final Instant issued = command.getIssuedAt();
    if (appendedAt < 0) {
      return issued;
    }
    final Instant appended = Instant.ofEpochMilli(appendedAt);
    return issued.isAfter(appended) ? appended : issued;
  }

  /** {@code 2h30m}, {@code 10m0.5s}: ISO-8601 without its prefix. */
  private static String readable(final Duration duration) {
    return duration.toString().substring(2).toLowerCase(Locale.ROOT);
  }
}
