package io.quotaflow.history;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The two tiers the history is kept in (docs/semantics.md section 23): fine windows of {@code
 * fineStep} kept for {@code fineRetention}, and coarse windows of {@code coarseStep} kept for
 * {@code retention}, both written from the same changes so that a coarse window holds exactly the
 * sum of the fine windows it covers. Which tier answers a period depends only on its start.
 *
 * @param fineStep the fine tier's step
 * @param fineRetention how long the fine tier keeps its windows
 * @param coarseStep the coarse tier's step, a multiple of {@code fineStep} larger than it
 * @param retention how long the coarse tier keeps its windows, at least {@code fineRetention}
 */
public record HistoryTiers(
    Duration fineStep, Duration fineRetention, Duration coarseStep, Duration retention) {

  /** One of the two tiers. */
  public enum Tier {
    FINE,
    COARSE
  }

  public HistoryTiers {
    Objects.requireNonNull(fineStep, "fineStep");
    Objects.requireNonNull(fineRetention, "fineRetention");
    Objects.requireNonNull(coarseStep, "coarseStep");
    Objects.requireNonNull(retention, "retention");
    if (fineStep.toMillis() <= 0
        || coarseStep.toMillis() <= fineStep.toMillis()
        || coarseStep.toMillis() % fineStep.toMillis() != 0
        || fineRetention.compareTo(coarseStep) < 0
        || retention.compareTo(fineRetention) < 0) {
      throw new IllegalArgumentException(
          "history tiers need 0 < fine step < coarse step (a multiple of it) <= fine retention <="
              + " retention: "
              + this);
    }
  }

  /**
   * The earliest start of a period the fine tier answers at {@code now}: {@code fineRetention}
   * back, and one coarse step more, so that a period asked from {@code -fineRetention} and widened
   * to whole steps (up to a coarse step) is still answered from it.
   */
  public Instant fineSince(Instant now) {
    return now.minus(fineRetention).minus(coarseStep);
  }

  /**
   * How long the fine tier's store keeps its windows: {@code fineRetention}, a coarse step for
   * {@link #fineSince}, and a coarse step more, so that every change in the coarse window holding
   * the start of a period the fine tier answers is still kept in it. When the fine tier keeps no
   * change before such a start, the last change before it lies in an earlier coarse window, and the
   * coarse tier tells the levels then in force exactly.
   */
  public Duration fineKept() {
    return fineRetention.plus(coarseStep).plus(coarseStep);
  }

  /** The tier that answers a period starting at {@code from}, asked at {@code now}. */
  public Tier tierFor(Instant from, Instant now) {
    return from.isBefore(fineSince(now)) ? Tier.COARSE : Tier.FINE;
  }

  /** The step {@code tier} is kept at. */
  public Duration step(Tier tier) {
    return tier == Tier.FINE ? fineStep : coarseStep;
  }

  /** How long the store of {@code tier} keeps its windows. */
  public Duration kept(Tier tier) {
    return tier == Tier.FINE ? fineKept() : retention;
  }

  /**
   * The tier that answers steps of {@code step} from {@code from}.
   *
   * @throws IllegalArgumentException when {@code step} is not a multiple of that tier's step, or
   *     {@code from} not a multiple of {@code step}
   */
  public Tier forSteps(Instant from, Duration step, Instant now) {
    final Tier tier = tierFor(from, now);
    final long kept = step(tier).toMillis();
    if (step.toMillis() <= 0 || step.toMillis() % kept != 0) {
      throw new IllegalArgumentException(
          "step "
              + step
              + " is not a multiple of "
              + step(tier)
              + ", the step of the history that answers a period from "
              + from
              + why(tier, now));
    }
    if (from.toEpochMilli() % step.toMillis() != 0) {
      throw new IllegalArgumentException(
          "the period must start at a multiple of the step (" + step + "): " + from);
    }
    return tier;
  }

  /**
   * The tier that answers totals over {@code [from, to)}.
   *
   * @throws IllegalArgumentException when the period's ends are not multiples of that tier's step
   */
  public Tier forTotals(Instant from, Instant to, Instant now) {
    final Tier tier = tierFor(from, now);
    final long kept = step(tier).toMillis();
    if (from.toEpochMilli() % kept != 0 || to.toEpochMilli() % kept != 0) {
      throw new IllegalArgumentException(
          "a period from "
              + from
              + " must start and end at multiples of "
              + step(tier)
              + ", the step of the history that answers it"
              + why(tier, now));
    }
    return tier;
  }

  /**
   * {@code at} widened down to a whole step of the tier that answers the period so started: the
   * fine step, or the coarse one when that start is older than {@link #fineSince}.
   */
  public Instant floor(Instant at, Instant now) {
    final Instant fine = HistoryWindow.windowOf(at, fineStep);
    return tierFor(fine, now) == Tier.FINE ? fine : HistoryWindow.windowOf(at, coarseStep);
  }

  private String why(Tier tier, Instant now) {
    return tier == Tier.FINE
        ? " (the fine history, kept at steps of " + fineStep + ")"
        : " (the coarse history: periods starting before "
            + fineSince(now)
            + " are answered from windows of "
            + coarseStep
            + ")";
  }
}
