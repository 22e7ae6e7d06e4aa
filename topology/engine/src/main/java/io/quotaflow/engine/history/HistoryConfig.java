package io.quotaflow.engine.history;

import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import java.time.Duration;
import java.util.Optional;

/** The history settings, checked together. */
public final class HistoryConfig {

  private HistoryConfig() {}

  /** The step the history is kept at; empty when it is not kept. */
  public static Optional<Duration> step(EngineConfig config) {
    if (!config.get(EngineSettings.HISTORY_ENABLED)) {
      return Optional.empty();
    }
    retention(config);
    return Optional.of(config.get(EngineSettings.HISTORY_STEP));
  }

  /**
   * How long the history is kept.
   *
   * @throws IllegalArgumentException when it is shorter than the step
   */
  public static Duration retention(EngineConfig config) {
    final Duration step = config.get(EngineSettings.HISTORY_STEP);
    final Duration retention = config.get(EngineSettings.HISTORY_RETENTION);
    if (retention.compareTo(step) < 0) {
      throw new IllegalArgumentException(
          EngineSettings.HISTORY_RETENTION.key()
              + " ("
              + retention
              + ") must be at least "
              + EngineSettings.HISTORY_STEP.key()
              + " ("
              + step
              + ")");
    }
    return retention;
  }
}
