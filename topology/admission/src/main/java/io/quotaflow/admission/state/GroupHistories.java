package io.quotaflow.admission.state;

import io.quotaflow.history.HistoryStep;
import io.quotaflow.history.HistoryWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** The history the engine keeps of a cluster's groups (docs/semantics.md section 23). */
public interface GroupHistories {

  /**
   * The step of the history that answers a period starting at {@code from}: with two tiers (section
   * 23), the fine tier's, or the coarse tier's for a start older than the fine tier keeps.
   */
  Duration step(Instant from, Instant now);

  /**
   * {@code at} widened down to a whole step of the history that answers a period so started (the
   * coarse step when the fine one would start it before the fine tier keeps).
   */
  default Instant floor(Instant at, Instant now) {
    return HistoryWindow.windowOf(at, step(at, now));
  }

  /** How long it is kept (its coarse tier). */
  Duration retention();

  /**
   * {@code group}'s steps of {@code step} (a multiple of {@link #step(Instant, Instant)} for {@code
   * from}) over {@code [from, to)}, {@code from} a multiple of {@code step}, none after {@code
   * now}.
   *
   * @throws IllegalArgumentException when the step or the period's start do not fit the tier that
   *     answers
   */
  List<HistoryStep> steps(String group, Instant from, Instant to, Duration step, Instant now);

  /** Whether any of {@code group}'s history is kept (it may have been deleted since). */
  boolean keepsAny(String group, Instant now);

  /**
   * Each group's totals over {@code [from, to)} (multiples of {@link #step(Instant, Instant)} for
   * {@code from}), none after {@code now}: the {@code groups} named and every other group with
   * history in the period.
   *
   * @throws IllegalArgumentException when the period's ends do not fit the tier that answers
   */
  Map<String, HistoryStep> totals(Collection<String> groups, Instant from, Instant to, Instant now);
}
