package io.quotaflow.engine.config;

import io.quotaflow.topics.TopicCatalogue;
import io.quotaflow.tree.QuotaOptions;
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
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The engine's effective configuration: the typed settings of {@link EngineSettings}, and the Kafka
 * client and Kafka Streams settings that pass through unchanged.
 *
 * <p>Sources, each overriding the one before: the defaults, a properties file, the environment,
 * then explicit overrides (command-line options). In the environment, {@code
 * QUOTAFLOW_REVOKE_DELAY} sets {@code revoke.delay} and {@code QUOTAFLOW_KAFKA_BOOTSTRAP_SERVERS}
 * sets the Kafka setting {@code bootstrap.servers}; other {@code QUOTAFLOW_*} variables belong to
 * other components and are ignored. Immutable.
 */
public final class EngineConfig {
  /** Prefix of every environment variable the engine reads. */
  public static final String ENVIRONMENT_PREFIX = "QUOTAFLOW_";

  /** Prefix of environment variables holding Kafka settings. */
  public static final String KAFKA_ENVIRONMENT_PREFIX = ENVIRONMENT_PREFIX + "KAFKA_";

  /** Kafka settings whose engine default differs from Kafka's own. */
  public static final Map<String, String> KAFKA_DEFAULTS =
      Map.of(
          StreamsConfig.APPLICATION_ID_CONFIG, "quotaflow-engine",
          StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2,
          StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, "0");

  private final Map<String, Object> engine;
  private final Map<String, String> engineTexts;
  private final Map<String, String> kafka;

  private EngineConfig(
      final Map<String, Object> engine,
      final Map<String, String> engineTexts,
      final Map<String, String> kafka) {
    this.engine = Map.copyOf(engine);
    this.engineTexts = Map.copyOf(engineTexts);
    this.kafka = Map.copyOf(kafka);
  }

  /** Every setting at its default. */
  public static EngineConfig defaults() {
    return builder().build();
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** The value of an engine setting. */
  public <T> T get(final Setting<T> setting) {
    @SuppressWarnings("unchecked")
    final T value = (T) engine.get(setting.key());
    return value;
  }

  /** The quota semantics options. */
  public QuotaOptions quotaOptions() {
    return EngineSettings.quotaOptions(this);
  }

  /** The topics, named with the configured prefix. */
  public TopicCatalogue topics() {
    return TopicCatalogue.withPrefix(get(EngineSettings.TOPIC_PREFIX));
  }

  /** The Kafka client and Kafka Streams settings, defaults included. */
  public Map<String, String> kafka() {
    return kafka;
  }

  /** One Kafka setting, if set. */
  public Optional<String> kafka(final String key) {
    return Optional.ofNullable(kafka.get(key));
  }

  /** The Kafka settings as properties. */
  public Properties kafkaProperties() {
    final Properties properties = new Properties();
    properties.putAll(kafka);
    return properties;
  }

  /**
   * Every effective setting as {@code key = value} lines for the start-up log: engine settings in
   * catalogue order, then the Kafka settings by key; secrets masked.
   */
  public List<String> describe() {
    final List<String> lines = new ArrayList<>();
    for (final Setting<?> setting : EngineSettings.ALL) {
      lines.add(
          setting.key() + " = " + Secrets.shown(setting.key(), engineTexts.get(setting.key())));
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

    private Builder() {
      values.putAll(KAFKA_DEFAULTS);
    }

    /** Sets one setting, engine or Kafka. */
    public Builder set(final String key, final String value) {
      values.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
      return this;
    }

    /** Sets every entry. */
    public Builder setAll(final Map<String, String> entries) {
      entries.forEach(this::set);
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

    /**
     * Reads the {@code QUOTAFLOW_*} variables of an environment (usually {@code System.getenv()}).
     */
    public Builder environment(final Map<String, String> environment) {
      return environment(environment, List.of());
    }

    /**
     * Reads the {@code QUOTAFLOW_*} variables of an environment, also those of settings that
     * components started beside the engine define (e.g. the admission plugin's), which then reach
     * those components through {@link EngineConfig#kafka()}.
     */
    public Builder environment(
        final Map<String, String> environment, final List<Setting<?>> componentSettings) {
      final Map<String, String> byVariable = new HashMap<>();
      EngineSettings.ALL.forEach(
          setting -> byVariable.put(setting.environmentName(), setting.key()));
      componentSettings.forEach(
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
     * The configuration.
     *
     * @throws IllegalArgumentException naming the setting when a value does not parse
     */
    public EngineConfig build() {
      final Map<String, Object> engine = new HashMap<>();
      final Map<String, String> texts = new HashMap<>();
      final Map<String, String> kafka = new HashMap<>(values);
      for (final Setting<?> setting : EngineSettings.ALL) {
        final String given = kafka.remove(setting.key());
        final String text = given == null ? setting.defaultValue() : given.trim();
        engine.put(setting.key(), setting.parse(text));
        texts.put(setting.key(), text);
      }
      return new EngineConfig(engine, texts, kafka);
    }
  }
}
