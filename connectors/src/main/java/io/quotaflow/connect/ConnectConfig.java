package io.quotaflow.connect;

import io.quotaflow.config.ConfigSources;
import io.quotaflow.config.LoadedConfig;
import io.quotaflow.config.Setting;
import io.quotaflow.topics.TopicCatalogue;
import java.util.List;
import java.util.Map;

/**
 * The effective configuration of {@code quotaflow connect}: the typed settings of {@link
 * ConnectSettings}, and Kafka client settings that pass through unchanged to every client.
 *
 * <p>Sources, each overriding the one before: the defaults, a properties file, the environment,
 * then command-line options. In the environment, {@code QUOTAFLOW_EVICTION_DRY_RUN} sets {@code
 * eviction.dry.run} and {@code QUOTAFLOW_KAFKA_SECURITY_PROTOCOL} sets the Kafka setting {@code
 * security.protocol}; other {@code QUOTAFLOW_*} variables belong to other components and are
 * ignored (see {@link ConfigSources}). Immutable.
 */
public final class ConnectConfig {

  /** Prefix of every environment variable read. */
  public static final String ENVIRONMENT_PREFIX = ConfigSources.ENVIRONMENT_PREFIX;

  /** Prefix of environment variables holding Kafka settings. */
  public static final String KAFKA_ENVIRONMENT_PREFIX = ConfigSources.KAFKA_ENVIRONMENT_PREFIX;

  private final LoadedConfig loaded;

  private ConnectConfig(final LoadedConfig loaded) {
    this.loaded = loaded;
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The value of a setting.
   *
   * @throws IllegalArgumentException when the setting is not one of {@link ConnectSettings#ALL}
   */
  public <T> T get(final Setting<T> setting) {
    return loaded.get(setting);
  }

  /** The topics, named with the configured prefix. */
  public TopicCatalogue topics() {
    return TopicCatalogue.withPrefix(get(ConnectSettings.TOPIC_PREFIX));
  }

  /** The Kafka client settings, as every client starts from them. */
  public Map<String, Object> kafka() {
    return Map.copyOf(loaded.passThrough());
  }

  /**
   * Every effective setting as {@code key = value} lines, connect settings in catalogue order and
   * then Kafka settings by key; secrets masked.
   */
  public List<String> describe() {
    return loaded.describe();
  }

  @Override
  public String toString() {
    return loaded.toString();
  }

  /**
   * Collects the sources of a configuration; later calls override earlier ones. Keys that are not
   * connect settings are Kafka settings.
   */
  public static final class Builder extends ConfigSources<Builder, ConnectConfig> {
    private Builder() {
      super(ConnectSettings.ALL);
    }

    @Override
    protected ConnectConfig create(final LoadedConfig loaded) {
      return new ConnectConfig(loaded);
    }
  }
}
