package io.quotaflow.connect;

import io.quotaflow.engine.config.Setting;
import io.quotaflow.evict.EvictionSettings;
import io.quotaflow.source.SourceSettings;
import io.quotaflow.status.StatusSettings;
import io.quotaflow.topics.TopicCatalogue;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * The documented settings of {@code quotaflow connect}: key, type, default and meaning. Topic
 * settings share their keys with the engine's, so one configuration file serves both.
 */
public final class ConnectSettings {

  public static final Setting<String> TOPIC_PREFIX =
      setting(
          "topic.prefix",
          "string",
          TopicCatalogue.DEFAULT_PREFIX,
          "Prefix of every quotaflow topic name.",
          text -> TopicCatalogue.withPrefix(text).prefix());

  public static final Setting<Integer> TOPIC_PARTITIONS =
      setting(
          "topic.partitions",
          "int",
          "6",
          "Partition count of topics created at start when missing (as the engine creates them).",
          Parse::positiveInt);

  public static final Setting<Integer> TOPIC_REPLICATION_FACTOR =
      setting(
          "topic.replication.factor",
          "int",
          "1",
          "Replication factor of topics created at start when missing (use 3 in production).",
          Parse::positiveInt);

  public static final Setting<Duration> SOURCE_RESYNC =
      setting(
          "source.resync",
          "duration",
          "10m",
          "How often the informers replay their cache; a replay writes only what changed.",
          Parse::duration);

  public static final Setting<Duration> SOURCE_RECONCILE_INTERVAL =
      setting(
          "source.reconcile.interval",
          "duration",
          "5m",
          "How often every key the source topics hold is checked against the clusters (also after"
              + " every relist).",
          Parse::duration);

  public static final Setting<Duration> SOURCE_START_TIMEOUT =
      setting(
          "source.start.timeout",
          "duration",
          "1m",
          "How long reading each source topic at start may take.",
          Parse::duration);

  public static final Setting<Boolean> EVICTION_DRY_RUN =
      setting(
          "eviction.dry.run",
          "boolean",
          "false",
          "Decide and report DRY_RUN instead of evicting.",
          Parse::bool);

  public static final Setting<Integer> EVICTION_MAX_ATTEMPTS =
      setting(
          "eviction.max.attempts",
          "int",
          "6",
          "Eviction requests per command before it is reported BLOCKED_BY_BUDGET (or FAILED).",
          Parse::positiveInt);

  public static final Setting<Duration> EVICTION_BACKOFF =
      setting(
          "eviction.backoff",
          "duration",
          "1s",
          "Wait after the first refused eviction request; doubles after each further one.",
          Parse::duration);

  public static final Setting<Duration> EVICTION_BACKOFF_MAX =
      setting(
          "eviction.backoff.max",
          "duration",
          "30s",
          "Longest wait between two eviction requests for one command.",
          Parse::duration);

  public static final Setting<Double> EVICTION_RATE =
      setting(
          "eviction.requests.per.second",
          "number",
          "5",
          "API requests per second per cluster of the eviction executor.",
          Parse::positiveRate);

  public static final Setting<Integer> EVICTION_BURST =
      setting(
          "eviction.burst",
          "int",
          "10",
          "API requests per cluster the eviction executor may send at once.",
          Parse::positiveInt);

  public static final Setting<String> EVICTION_GROUP_ID =
      setting(
          "eviction.group.id",
          "string",
          EvictionSettings.DEFAULT_GROUP_ID,
          "Consumer group of the eviction executor; executors serving different clusters need"
              + " different groups.",
          Parse::nonBlank);

  public static final Setting<Duration> STATUS_FLUSH_INTERVAL =
      setting(
          "status.flush.interval",
          "duration",
          "1s",
          "How long the status writer gathers updates; a burst for one group becomes one write.",
          Parse::duration);

  public static final Setting<Double> STATUS_RATE =
      setting(
          "status.requests.per.second",
          "number",
          "10",
          "API requests per second per cluster of the status writer.",
          Parse::positiveRate);

  public static final Setting<Integer> STATUS_BURST =
      setting(
          "status.burst",
          "int",
          "20",
          "API requests per cluster the status writer may send at once.",
          Parse::positiveInt);

  public static final Setting<Duration> STATUS_RESYNC =
      setting(
          "status.resync",
          "duration",
          "1h",
          "How often the status writer rechecks every ElasticQuota against the latest runtime.",
          Parse::duration);

  public static final Setting<String> STATUS_GROUP_ID =
      setting(
          "status.group.id",
          "string",
          StatusSettings.DEFAULT_GROUP_ID,
          "Consumer group of the status writer.",
          Parse::nonBlank);

  /** Every setting, in the order the configuration is logged. */
  public static final List<Setting<?>> ALL =
      List.of(
          TOPIC_PREFIX,
          TOPIC_PARTITIONS,
          TOPIC_REPLICATION_FACTOR,
          SOURCE_RESYNC,
          SOURCE_RECONCILE_INTERVAL,
          SOURCE_START_TIMEOUT,
          EVICTION_DRY_RUN,
          EVICTION_MAX_ATTEMPTS,
          EVICTION_BACKOFF,
          EVICTION_BACKOFF_MAX,
          EVICTION_RATE,
          EVICTION_BURST,
          EVICTION_GROUP_ID,
          STATUS_FLUSH_INTERVAL,
          STATUS_RATE,
          STATUS_BURST,
          STATUS_RESYNC,
          STATUS_GROUP_ID);

  private ConnectSettings() {}

  /** The source's settings from a configuration. */
  static SourceSettings source(final ConnectConfig config) {
    return new SourceSettings(
        config.get(SOURCE_RESYNC),
        config.get(SOURCE_RECONCILE_INTERVAL),
        config.get(SOURCE_START_TIMEOUT));
  }

  /** The eviction executor's settings from a configuration. */
  static EvictionSettings eviction(final ConnectConfig config) {
    return new EvictionSettings(
        config.get(EVICTION_DRY_RUN),
        config.get(EVICTION_MAX_ATTEMPTS),
        config.get(EVICTION_BACKOFF),
        config.get(EVICTION_BACKOFF_MAX),
        config.get(EVICTION_RATE),
        config.get(EVICTION_BURST),
        config.get(EVICTION_GROUP_ID));
  }

  /** The status writer's settings from a configuration. */
  static StatusSettings status(final ConnectConfig config) {
    return new StatusSettings(
        config.get(STATUS_FLUSH_INTERVAL),
        config.get(STATUS_RATE),
        config.get(STATUS_BURST),
        config.get(STATUS_RESYNC),
        config.get(STATUS_GROUP_ID));
  }

  private static <T> Setting<T> setting(
      final String key,
      final String type,
      final String defaultValue,
      final String doc,
      final Function<String, T> parser) {
    return new Setting<>(key, type, defaultValue, doc, parser);
  }
}
