package io.quotaflow.connect;

import io.quotaflow.engine.config.Secrets;
import io.quotaflow.engine.config.Setting;
import io.quotaflow.topics.TopicCatalogue;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The effective configuration of {@code quotaflow connect}: the typed settings of {@link
 * ConnectSettings}, and Kafka client settings that pass through unchanged to every client.
 *
 * <p>Sources, each overriding the one before: the defaults, a properties file, the environment,
 * then command-line options. In the environment, {@code QUOTAFLOW_EVICTION_DRY_RUN} sets {@code
 * eviction.dry.run} and {@code QUOTAFLOW_KAFKA_SECURITY_PROTOCOL} sets the Kafka setting {@code
 * security.protocol}; other {@code QUOTAFLOW_*} variables belong to other components and are
 * ignored. Immutable.
 */
public final class ConnectConfig {

  /** Prefix of every environment variable read. */
  public static final String ENVIRONMENT_PREFIX = "QUOTAFLOW_";

  /** Prefix of environment variables holding Kafka settings. */
  public static final String KAFKA_ENVIRONMENT_PREFIX = ENVIRONMENT_PREFIX + "KAFKA_";

  private final Map<String, Object> settings;
  private final Map<String, String> kafka;

  private ConnectConfig(final Map<String, Object> settings, final Map<String, String> kafka) {
    this.settings = Map.copyOf(settings);
    this.kafka = Map.copyOf(kafka);
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** The value of a setting. */
  public <T> T get(final Setting<T> setting) {
    @SuppressWarnings("unchecked")
    final T value = (T) settings.get(setting.key());
    return value;
  }

  /** The topics, named with the configured prefix. */
  public TopicCatalogue topics() {
    return TopicCatalogue.withPrefix(get(ConnectSettings.TOPIC_PREFIX));
  }

  /** The Kafka client settings, as every client starts from them. */
  public Map<String, Object> kafka() {
    return Map.copyOf(kafka);
  }

  /**
   * Every effective setting as {@code key = value} lines, connect settings in catalogue order and
   * then Kafka settings by key; secrets masked.
   */
  public List<String> describe() {
    final List<String> lines = new ArrayList<>();
    for (final Setting<?> setting : ConnectSettings.ALL) {
      lines.add(setting.key() + " = " + Secrets.shown(setting.key(), settings.get(setting.key())));
    }
    new TreeMap<>(kafka)
        .forEach((key, value) -> lines.add(key + " = " + Secrets.shown(key, value)));
    return lines;
  }

  @Override
  public String toString() {
    return String.join(", ", describe());
  }

  /** Collects the sources of a configuration; later calls override earlier ones. */
  public static final class Builder {
    private final Map<String, String> values = new LinkedHashMap<>();

    private Builder() {}

    /** Sets one setting, connect or Kafka. */
    public Builder set(final String key, final String value) {
      values.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
      return this;
    }

    /**
     * Reads a properties file.
     *
     * @throws IllegalArgumentException when the file cannot be read
     */
    public Builder file(final Path file) {
      final Properties properties = new Properties();
      try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        properties.load(reader);
      } catch (IOException e) {
        throw new IllegalArgumentException("Cannot read configuration file " + file + ": " + e, e);
      }
      properties.stringPropertyNames().forEach(key -> set(key, properties.getProperty(key)));
      return this;
    }

    /** Reads the {@code QUOTAFLOW_*} variables of an environment. */
    public Builder environment(final Map<String, String> environment) {
      final Map<String, String> byVariable = new HashMap<>();
      ConnectSettings.ALL.forEach(
          setting -> byVariable.put(setting.environmentName(), setting.key()));
      new TreeMap<>(environment)
          .forEach(
              (variable, value) -> {
                if (variable.startsWith(KAFKA_ENVIRONMENT_PREFIX)) {
                  set(
                      variable
                          .substring(KAFKA_ENVIRONMENT_PREFIX.length())
                          .toLowerCase(Locale.ROOT)
                          .replace('_', '.'),
                      value);
                } else if (byVariable.containsKey(variable)) {
                  set(byVariable.get(variable), value);
                }
              });
      return this;
    }

    /**
     * The configuration; keys that are not connect settings are Kafka settings.
     *
     * @throws IllegalArgumentException naming the setting when a value does not parse
     */
    public ConnectConfig build() {
      final Map<String, Object> typed = new HashMap<>();
      final Map<String, String> kafka = new HashMap<>(values);
      for (final Setting<?> setting : ConnectSettings.ALL) {
        final String text = kafka.remove(setting.key());
        typed.put(setting.key(), setting.parse(text == null ? setting.defaultValue() : text));
      }
      return new ConnectConfig(typed, kafka);
    }
  }
}
