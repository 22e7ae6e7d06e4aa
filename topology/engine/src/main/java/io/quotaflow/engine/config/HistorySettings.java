package io.quotaflow.engine.config;

import io.quotaflow.config.Parsers;
import io.quotaflow.config.Setting;
import java.time.Duration;

/**
 * The settings of the history the engine keeps of each group (docs/engine.md, "History"): whether,
 * at which steps and how long. Part of {@link EngineSettings#ALL}; where its stores live is {@link
 * EngineSettings#HISTORY_STORES}, and {@code io.quotaflow.engine.history.HistoryConfig} checks them
 * together.
 */
public final class HistorySettings {
  /** Issue 30: whether the engine keeps each group's history (docs/semantics.md section 23). */
  public static final Setting<Boolean> HISTORY_ENABLED =
      new Setting<>(
          "history.enabled",
          "boolean",
          "true",
          "Whether the engine keeps each group's history (request, used, runtime, min, borrowed"
              + " and lent per resource, as exact integrals per step) in a window store with its"
              + " changelog, for the query API's history endpoint.",
          Parsers::bool);

  /** The step the history is kept at. */
  public static final Setting<Duration> HISTORY_STEP =
      new Setting<>(
          "history.step",
          "duration",
          "1m",
          "The step of the kept history, whole seconds; queries ask for multiples of it. Changing"
              + " it starts a new history (the store's name carries the step).",
          Parsers::wholeSeconds);

  /** How long the history is kept (its coarse tier). */
  public static final Setting<Duration> HISTORY_RETENTION =
      new Setting<>(
          "history.retention",
          "duration",
          "14d",
          "How long the history is kept: its coarse tier's windows (history.coarse.step); at"
              + " least history.fine.retention. A group's window is stored only when the group"
              + " changed in it, about 250 bytes each (size the heap, or use"
              + " state.stores=rocksdb, for busy clusters: docs/engine.md).",
          Parsers::wholeSeconds);

  /** Issue 40: how long the history's fine tier (windows of history.step) is kept. */
  public static final Setting<Duration> HISTORY_FINE_RETENTION =
      new Setting<>(
          "history.fine.retention",
          "duration",
          "1d",
          "How long the history's windows of history.step (its fine tier) are kept; at least"
              + " history.coarse.step. Older periods are answered from the coarse tier, in"
              + " steps of history.coarse.step (docs/semantics.md section 23).",
          Parsers::wholeSeconds);

  /** Issue 40: the step of the history's coarse tier, kept for history.retention. */
  public static final Setting<Duration> HISTORY_COARSE_STEP =
      new Setting<>(
          "history.coarse.step",
          "duration",
          "1h",
          "The step of the history's coarse tier, kept for history.retention: a multiple of"
              + " history.step, larger than it. Its windows are written from the same changes as"
              + " the fine ones, so they hold exactly the sums of the fine windows they cover.",
          Parsers::wholeSeconds);

  private HistorySettings() {}
}
