package io.quotaflow.admission.state;

import io.quotaflow.history.HistoryStep;
import io.quotaflow.history.HistoryTiers;
import io.quotaflow.history.HistoryTiers.Tier;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A history kept in memory in two tiers, answered as the engine's stores answer it ({@code
 * HistoryQueries}): the tier is picked by the period's start ({@link HistoryTiers#tierFor}). For
 * {@code quotaflow report --bootstrap-servers}, which reads both tiers' changelogs.
 */
public final class TieredWindows extends TieredHistories {

  private final KeptWindows fine;
  private final KeptWindows coarse;

  /**
   * @param fine the fine tier's windows, reading the levels in force before them in {@code coarse}
   * @param coarse the coarse tier's windows
   */
  public TieredWindows(HistoryTiers tiers, KeptWindows fine, KeptWindows coarse) {
    super(tiers);
    this.fine = Objects.requireNonNull(fine, "fine");
    this.coarse = Objects.requireNonNull(coarse, "coarse");
  }

  @Override
  public List<HistoryStep> steps(
      String group, Instant from, Instant to, Duration step, Instant now) {
    return of(tiers.forSteps(from, step, now)).steps(group, from, to, step, now);
  }

  @Override
  public boolean keepsAny(String group, Instant now) {
    return coarse.keepsAny(group, now) || fine.keepsAny(group, now);
  }

  @Override
  public Map<String, HistoryStep> totals(
      Collection<String> groups, Instant from, Instant to, Instant now) {
    return of(tiers.forTotals(from, to, now)).totals(groups, from, to, now);
  }

  private KeptWindows of(Tier tier) {
    return tier == Tier.FINE ? fine : coarse;
  }
}
