package io.quotaflow.engine.config;

import io.quotaflow.config.ConfigSources;
import io.quotaflow.config.LoadedConfig;
import io.quotaflow.config.QuotaSemantics;
import io.quotaflow.config.QuotaSettings;
import io.quotaflow.config.Setting;
import io.quotaflow.config.SettingValues;
import io.quotaflow.dra.DeviceClassMappings;
import io.quotaflow.eviction.ProtectedPods;
import io.quotaflow.topics.TopicCatalogue;
import io.quotaflow.tree.QuotaOptions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The engine's effective configuration: the typed settings of {@link EngineSettings}, and the Kafka
 * client and Kafka Streams settings that pass through unchanged.
 *
 * <p>Sources, each overriding the one before: the defaults, a properties file, the environment,
 * then explicit overrides (command-line options). In the environment, {@code
 * QUOTAFLOW_REVOKE_DELAY} sets {@code revoke.delay} and {@code QUOTAFLOW_KAFKA_BOOTSTRAP_SERVERS}
 * sets the Kafka setting {@code bootstrap.servers}; other {@code QUOTAFLOW_*} variables belong to
 * other components and are ignored (see {@link ConfigSources}). Immutable.
 */
public final class EngineConfig implements SettingValues {
  /** Prefix of every environment variable the engine reads. */
  public static final String ENVIRONMENT_PREFIX = ConfigSources.ENVIRONMENT_PREFIX;

  /** Prefix of environment variables holding Kafka settings. */
  public static final String KAFKA_ENVIRONMENT_PREFIX = ConfigSources.KAFKA_ENVIRONMENT_PREFIX;

  /**
   * Kafka settings whose engine default differs from Kafka's own. {@code max.task.idle.ms=-1}: the
   * engine computes on wall-clock time and its state converges whatever the order of its three
   * inputs, so a task never waits to align their stream times (Kafka Streams' check for it also
   * formats log text for every record while an input is empty).
   */
  public static final Map<String, String> KAFKA_DEFAULTS =
      Map.of(
          StreamsConfig.APPLICATION_ID_CONFIG, "quotaflow-engine",
          StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2,
          StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, "0",
          StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, "-1");

  /**
   * The commit interval under exactly_once_v2 unless set (Kafka's is 100 ms): an event's result is
   * visible once its transaction commits (twice with inputs placed by key: the repartition hop's,
   * then the output's), so this bounds latency.
   */
  public static final String EXACTLY_ONCE_COMMIT_INTERVAL_MS = "50";

  /** Prefixes of the settings of components started beside the engine (the admission plugin). */
  public static final List<String> COMPONENT_PREFIXES = List.of("admission.");

  private final LoadedConfig loaded;

  private EngineConfig(final LoadedConfig loaded) {
    this.loaded = loaded;
  }

  /** Every setting at its default. */
  public static EngineConfig defaults() {
    return builder().build();
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The value of an engine setting.
   *
   * @throws IllegalArgumentException when the setting is not one of {@link EngineSettings#ALL}
   */
  @Override
  public <T> T get(final Setting<T> setting) {
    return loaded.get(setting);
  }

  /**
   * What the settings of quota semantics say ({@link QuotaSettings}), as every reader reads them.
   */
  public QuotaSemantics semantics() {
    return QuotaSettings.read(this);
  }

  /**
   * What claimed devices count as: {@code quota.device.classes} with {@code
   * quota.device.unmapped.class} for the classes it does not name (docs/semantics.md section 22).
   */
  public DeviceClassMappings deviceClasses() {
    return semantics().deviceClasses();
  }

  /** The quota semantics options, with the pods reclaim protects. */
  public QuotaOptions quotaOptions() {
    return semantics()
        .options()
        .withProtectedPods(
            new ProtectedPods(
                Set.copyOf(get(EngineSettings.RECLAIM_PROTECTED_NAMESPACES)),
                ProtectedPods.DEFAULT_PRIORITY_CLASSES,
                get(EngineSettings.RECLAIM_DEFAULT_GROUP_ENABLED)));
  }

  /** The topics, named with the configured prefix. */
  public TopicCatalogue topics() {
    return TopicCatalogue.withPrefix(get(EngineSettings.TOPIC_PREFIX));
  }

  /**
   * The Kafka client and Kafka Streams settings, defaults included (and the settings of components
   * the engine starts, such as the admission plugin's).
   */
  public Map<String, String> kafka() {
    return loaded.passThrough();
  }

  /** One Kafka setting, if set. */
  public Optional<String> kafka(final String key) {
    return loaded.passThrough(key);
  }

  /**
   * The Kafka settings as properties, for Kafka Streams: without the settings of the components
   * started beside the engine, which Kafka's clients would each log as unknown.
   */
  public Properties kafkaProperties() {
    final Properties properties = new Properties();
    kafka()
        .forEach(
            (key, value) -> {
              if (COMPONENT_PREFIXES.stream().noneMatch(key::startsWith)) {
                properties.put(key, value);
              }
            });
    return properties;
  }

  /**
   * Every effective setting as {@code key = value} lines for the start-up log: engine settings in
   * catalogue order, then the Kafka settings by key; secrets masked.
   */
  public List<String> describe() {
    return loaded.describe();
  }

  @Override
  public String toString() {
    return loaded.toString();
  }

  /**
   * Collects the sources of a configuration, starting from {@link #KAFKA_DEFAULTS}; later calls
   * override earlier ones. In the environment it also reads the variables of the settings of
   * components started beside the engine (e.g. the admission plugin's), which then reach those
   * components through {@link EngineConfig#kafka()}.
   */
  public static final class Builder extends ConfigSources<Builder, EngineConfig> {
    private Builder() {
      super(EngineSettings.ALL);
      setAll(KAFKA_DEFAULTS);
    }

    @Override
    protected EngineConfig create(final LoadedConfig loaded) {
      final boolean exactlyOnce =
          StreamsConfig.EXACTLY_ONCE_V2.equals(
              loaded.passThrough(StreamsConfig.PROCESSING_GUARANTEE_CONFIG).orElse(""));
      return new EngineConfig(
          exactlyOnce
              ? loaded.withPassThroughDefault(
                  StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, EXACTLY_ONCE_COMMIT_INTERVAL_MS)
              : loaded);
    }
  }
}
