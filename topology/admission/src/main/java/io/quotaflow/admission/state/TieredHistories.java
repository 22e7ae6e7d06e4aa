package io.quotaflow.admission.state;

import io.quotaflow.history.HistoryTiers;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A history kept in two tiers (docs/semantics.md section 23): which step answers a period, and how
 * long it is kept, follow from the tiers alone, whoever holds the windows (the engine's stores, or
 * the changelogs read offline).
 */
abstract class TieredHistories implements GroupHistories {

  /** The tiers the history is kept in. */
  protected final HistoryTiers tiers;

  TieredHistories(HistoryTiers tiers) {
    this.tiers = Objects.requireNonNull(tiers, "tiers");
  }

  @Override
  public Duration step(Instant from, Instant now) {
    return tiers.step(tiers.tierFor(from, now));
  }

  @Override
  public Instant floor(Instant at, Instant now) {
    return tiers.floor(at, now);
  }

  @Override
  public Duration retention() {
    return tiers.retention();
  }
}
