package io.quotaflow.engine.fairshare;

import io.quotaflow.config.QuotaSettings;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.HistorySettings;
import io.quotaflow.engine.history.HistoryConfig;
import io.quotaflow.fairshare.HalfLife;
import java.time.Duration;
import java.util.Optional;

/** The settings of fair share with memory (docs/semantics.md section 24), checked together. */
public final class FairShareConfig {

  private FairShareConfig() {}

  /**
   * The decay per history step; empty when fair share has no memory.
   *
   * @throws IllegalArgumentException when the memory is on but the history is not kept
   */
  public static Optional<HalfLife> halfLife(EngineConfig config) {
    if (!config.get(QuotaSettings.FAIRSHARE_MEMORY_ENABLED)) {
      return Optional.empty();
    }
    final Optional<Duration> step = HistoryConfig.step(config);
    if (step.isEmpty()) {
      throw new IllegalArgumentException(
          QuotaSettings.FAIRSHARE_MEMORY_ENABLED.key()
              + "=true needs "
              + HistorySettings.HISTORY_ENABLED.key()
              + "=true: the memory is read from the history's step windows");
    }
    return Optional.of(
        HalfLife.of(step.get(), config.get(QuotaSettings.FAIRSHARE_MEMORY_HALF_LIFE)));
  }
}
