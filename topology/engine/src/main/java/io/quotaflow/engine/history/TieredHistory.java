package io.quotaflow.engine.history;

import io.quotaflow.engine.TopologyNames;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.history.GroupLevels;
import io.quotaflow.history.HistoryTiers;
import io.quotaflow.history.HistoryWindow;
import io.quotaflow.schemas.internal.GroupHistoryWindow;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.streams.state.WindowStore;

/**
 * The history in its two tiers (docs/semantics.md section 23): every change, eviction and denial is
 * noted in the fine windows and in the coarse ones. A window's integrals and counts add up, so a
 * coarse window holds exactly the sum of the fine windows it covers, quiet ones included: the
 * roll-up is exact by construction, with nothing to fold or re-read when a fine window expires.
 */
public final class TieredHistory {

  private final HistoryKeeper fine;
  private final HistoryKeeper coarse;
  private final HistoryTiers tiers;
  // The latest time noted. A denial read late, older than the fine store keeps, goes to the coarse
  // tier only: the fine store would drop it, logging a warning each time (after an outage, one per
  // denial of the backlog). Such a window lies before every period the fine tier answers.
  private Instant latest = Instant.EPOCH;

  public TieredHistory(HistoryKeeper fine, HistoryKeeper coarse, HistoryTiers tiers) {
    this.fine = Objects.requireNonNull(fine, "fine");
    this.coarse = Objects.requireNonNull(coarse, "coarse");
    this.tiers = Objects.requireNonNull(tiers, "tiers");
  }

  /** Both tiers over the stores {@code stores} names ({@link TopologyNames#historyStore}). */
  public static TieredHistory of(
      Function<String, WindowStore<GroupId, GroupHistoryWindow>> stores, HistoryTiers tiers) {
    final HistoryKeeper coarse =
        new HistoryKeeper(
            stores.apply(TopologyNames.historyStore(tiers.coarseStep())), tiers.coarseStep());
    // A fine window opened past the fine tier's records reads the levels then from the coarse.
    final HistoryKeeper fine =
        new HistoryKeeper(
            stores.apply(TopologyNames.historyStore(tiers.fineStep())),
            tiers.fineStep(),
            coarse::levelsAt);
    return new TieredHistory(fine, coarse, tiers);
  }

  /** See {@link HistoryKeeper#changed}. */
  public void changed(GroupId group, Instant at, Supplier<GroupLevels> before, GroupLevels after) {
    noted(at);
    fine.changed(group, at, before, after);
    coarse.changed(group, at, before, after);
  }

  /** See {@link HistoryKeeper#evicted}. */
  public void evicted(GroupId group, Instant at, Supplier<GroupLevels> current, String reason) {
    noted(at);
    fine.evicted(group, at, current, reason);
    coarse.evicted(group, at, current, reason);
  }

  /** See {@link HistoryKeeper#denied}. */
  public void denied(GroupId group, Instant at, Supplier<GroupLevels> current, String reason) {
    noted(at);
    if (HistoryWindow.windowOf(at, tiers.fineStep()).isAfter(latest.minus(tiers.fineKept()))) {
      fine.denied(group, at, current, reason);
    }
    coarse.denied(group, at, current, reason);
  }

  private void noted(Instant at) {
    if (at.isAfter(latest)) {
      latest = at;
    }
  }
}
