package io.quotaflow.engine.history;

import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.HistorySettings;
import io.quotaflow.history.HistoryTiers;
import java.time.Duration;
import java.util.Optional;

/** The history settings, checked together. */
public final class HistoryConfig {

  private HistoryConfig() {}

  /** The step the history's fine tier is kept at; empty when no history is kept. */
  public static Optional<Duration> step(EngineConfig config) {
    return tiers(config).map(HistoryTiers::fineStep);
  }

  /**
   * The history's two tiers (docs/semantics.md section 23); empty when no history is kept.
   *
   * @throws IllegalArgumentException naming the rule the settings break
   */
  public static Optional<HistoryTiers> tiers(EngineConfig config) {
    if (!config.get(HistorySettings.HISTORY_ENABLED)) {
      return Optional.empty();
    }
    return Optional.of(
        tiers(
            config.get(HistorySettings.HISTORY_STEP),
            config.get(HistorySettings.HISTORY_COARSE_STEP),
            config.get(HistorySettings.HISTORY_FINE_RETENTION),
            config.get(HistorySettings.HISTORY_RETENTION)));
  }

  /**
   * The tiers of these settings' values (for a reader outside the engine, such as {@code quotaflow
   * report}).
   *
   * @throws IllegalArgumentException naming the rule they break
   */
  public static HistoryTiers tiers(
      Duration step, Duration coarseStep, Duration fineRetention, Duration retention) {
    if (coarseStep.compareTo(step) <= 0 || coarseStep.toMillis() % step.toMillis() != 0) {
      throw new IllegalArgumentException(
          rule(HistorySettings.HISTORY_COARSE_STEP.key(), coarseStep)
              + " must be a multiple of "
              + rule(HistorySettings.HISTORY_STEP.key(), step)
              + " larger than it: the coarse windows are sums of whole fine ones, and a coarse"
              + " step equal to the step would name the same store");
    }
    if (fineRetention.compareTo(coarseStep) < 0) {
      throw new IllegalArgumentException(
          rule(HistorySettings.HISTORY_FINE_RETENTION.key(), fineRetention)
              + " must be at least "
              + rule(HistorySettings.HISTORY_COARSE_STEP.key(), coarseStep));
    }
    if (retention.compareTo(fineRetention) < 0) {
      throw new IllegalArgumentException(
          rule(HistorySettings.HISTORY_RETENTION.key(), retention)
              + " must be at least "
              + rule(HistorySettings.HISTORY_FINE_RETENTION.key(), fineRetention));
    }
    return new HistoryTiers(step, fineRetention, coarseStep, retention);
  }

  private static String rule(String key, Duration value) {
    return key + " (" + value + ")";
  }
}
