package io.quotaflow.admission.http.state;

import io.quotaflow.history.HistoryStep;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** The history the engine keeps of a cluster's groups (docs/semantics.md section 23). */
public interface GroupHistories {

  /** The step the history is kept at. */
  Duration step();

  /** How long it is kept. */
  Duration retention();

  /**
   * {@code group}'s steps of {@code step} (a multiple of {@link #step()}) over {@code [from, to)},
   * {@code from} a multiple of {@code step}, none after {@code now}.
   */
  List<HistoryStep> steps(String group, Instant from, Instant to, Duration step, Instant now);

  /** Whether any of {@code group}'s history is kept (it may have been deleted since). */
  boolean keepsAny(String group, Instant now);

  /**
   * Each group's totals over {@code [from, to)} (multiples of {@link #step()}), none after {@code
   * now}: the {@code groups} named and every other group with history in the period.
   */
  Map<String, HistoryStep> totals(Collection<String> groups, Instant from, Instant to, Instant now);
}
