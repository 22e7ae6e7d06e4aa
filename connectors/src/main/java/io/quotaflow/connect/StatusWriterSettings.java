package io.quotaflow.connect;

import io.quotaflow.config.Parsers;
import io.quotaflow.config.Setting;
import io.quotaflow.quota.SpecialQuotaNamespaces;
import io.quotaflow.status.ConflictSettings;
import io.quotaflow.status.StatusMode;
import io.quotaflow.status.StatusSettings;
import java.time.Duration;

/**
 * The settings of the status writer of {@code quotaflow connect}, which writes each group's runtime
 * and request to its ElasticQuota: how often and how fast, as which consumer group, in which mode,
 * and how it yields to another writer of the same fields. Part of {@link ConnectSettings#ALL}.
 */
public final class StatusWriterSettings {
  public static final Setting<Duration> STATUS_FLUSH_INTERVAL =
      new Setting<>(
          "status.flush.interval",
          "duration",
          "1s",
          "How long the status writer gathers updates; a burst for one group becomes one write.",
          Parsers::duration);

  public static final Setting<Double> STATUS_RATE =
      new Setting<>(
          "status.requests.per.second",
          "number",
          "10",
          "API requests per second per cluster of the status writer.",
          Parsers::positiveNumber);

  public static final Setting<Integer> STATUS_BURST =
      new Setting<>(
          "status.burst",
          "int",
          "20",
          "API requests per cluster the status writer may send at once.",
          Parsers::positiveInt);

  public static final Setting<Duration> STATUS_RESYNC =
      new Setting<>(
          "status.resync",
          "duration",
          "1h",
          "How often the status writer rechecks every ElasticQuota against the latest runtime.",
          Parsers::duration);

  public static final Setting<String> STATUS_GROUP_ID =
      new Setting<>(
          "status.group.id",
          "string",
          StatusSettings.DEFAULT_GROUP_ID,
          "Consumer group of the status writer.",
          Parsers::nonBlank);

  public static final Setting<StatusMode> STATUS_MODE =
      new Setting<>(
          "status.mode",
          "koordinator|shadow",
          "koordinator",
          "Where the status writer shows runtimes: koordinator writes Koordinator's runtime and"
              + " request annotations and status.used; shadow writes only quotaflow.io/runtime and"
              + " quotaflow.io/request and never the status, to run beside Koordinator.",
          Parsers.oneOf(StatusMode.class));

  public static final Setting<Integer> STATUS_CONFLICT_OVERWRITES =
      new Setting<>(
          "status.conflict.overwrites",
          "int",
          "3",
          "Times another writer (Koordinator's controller left on) may change an ElasticQuota's"
              + " written status back within status.conflict.window before the status writer stops"
              + " writing that object for a while and emits a StatusOverwritten Event.",
          Parsers::positiveInt);

  public static final Setting<Duration> STATUS_CONFLICT_WINDOW =
      new Setting<>(
          "status.conflict.window",
          "duration",
          "5m",
          "How far back the status writer counts another writer's overwrites of one object.",
          Parsers::duration);

  public static final Setting<Duration> STATUS_CONFLICT_BACKOFF =
      new Setting<>(
          "status.conflict.backoff",
          "duration",
          "1m",
          "How long an object in conflict is left alone before one retry write, doubling each time"
              + " the retry is overwritten too; a retry that stands this long ends the conflict.",
          Parsers::duration);

  public static final Setting<Duration> STATUS_CONFLICT_BACKOFF_MAX =
      new Setting<>(
          "status.conflict.backoff.max",
          "duration",
          "30m",
          "The longest an object in conflict is left alone between two retries.",
          Parsers::duration);

  private StatusWriterSettings() {}

  /** The status writer's settings from a configuration. */
  static StatusSettings status(final ConnectConfig config) {
    return new StatusSettings(
        config.get(STATUS_FLUSH_INTERVAL),
        config.get(STATUS_RATE),
        config.get(STATUS_BURST),
        config.get(STATUS_RESYNC),
        config.get(STATUS_GROUP_ID),
        config.get(STATUS_MODE),
        new ConflictSettings(
            config.get(STATUS_CONFLICT_OVERWRITES),
            config.get(STATUS_CONFLICT_WINDOW),
            config.get(STATUS_CONFLICT_BACKOFF),
            config.get(STATUS_CONFLICT_BACKOFF_MAX)),
        new SpecialQuotaNamespaces(config.get(ConnectSettings.SOURCE_QUOTA_SPECIAL_NAMESPACES)));
  }
}
