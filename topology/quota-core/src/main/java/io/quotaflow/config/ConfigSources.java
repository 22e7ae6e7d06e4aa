package io.quotaflow.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Collects the sources of one component's configuration and reads them against its catalogue of
 * settings: the base of each component's configuration builder (and of the plain {@link
 * ConfigLoader}). Sources override each other in the order they are added; components add the
 * defaults, a properties file, the environment, then command-line options.
 *
 * <p>In the environment, a catalogue setting's {@link Setting#environmentName()} (e.g. {@code
 * QUOTAFLOW_REVOKE_DELAY}) sets it, and {@code QUOTAFLOW_KAFKA_BOOTSTRAP_SERVERS} sets the Kafka
 * setting {@code bootstrap.servers}; other variables, {@code QUOTAFLOW_*} ones of other components
 * included, are ignored. Every key that is not in the catalogue passes through as a Kafka setting.
 *
 * <p>A setting's {@linkplain Setting#deprecatedAliases() deprecated aliases} (former keys) are read
 * in every source as the setting (the environment variable of an alias too): an alias's value is
 * used when the setting's own key is not set, and the setting's key wins when both are. Either case
 * is logged as a warning naming the key to use, once per process for each alias and case. Not
 * thread-safe.
 *
 * @param <B> the builder itself, which every source method returns
 * @param <C> the configuration it builds
 */
public abstract class ConfigSources<B extends ConfigSources<B, C>, C> {
  /** Prefix of every environment variable read. */
  public static final String ENVIRONMENT_PREFIX = "QUOTAFLOW_";

  /** Prefix of environment variables holding Kafka settings. */
  public static final String KAFKA_ENVIRONMENT_PREFIX = ENVIRONMENT_PREFIX + "KAFKA_";

  private static final Logger LOG = LoggerFactory.getLogger(ConfigSources.class);

  /** The alias warnings logged so far, so that a configuration read twice warns once. */
  private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

  private final List<Setting<?>> settings;
  private final Map<String, String> values = new LinkedHashMap<>();

  /**
   * Sources for a catalogue's settings, in the order they are described.
   *
   * @throws IllegalArgumentException when two settings have one key (or deprecated alias)
   */
  protected ConfigSources(final List<Setting<?>> settings) {
    this.settings = List.copyOf(settings);
    final Set<String> keys = new HashSet<>();
    for (final Setting<?> setting : this.settings) {
      if (!keys.add(setting.key())) {
        throw new IllegalArgumentException("two settings have the key " + setting.key());
      }
    }
    for (final Setting<?> setting : this.settings) {
      for (final String alias : setting.deprecatedAliases()) {
        if (!keys.add(alias)) {
          throw new IllegalArgumentException("two settings have the key " + alias);
        }
      }
    }
  }

  /** Sets one value, of a catalogue setting or a Kafka setting. */
  public final B set(final String key, final String value) {
    values.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
    return self();
  }

  /** Sets every entry. */
  public final B setAll(final Map<String, String> entries) {
    entries.forEach(this::set);
    return self();
  }

  /**
   * Reads a properties file.
   *
   * @throws IllegalArgumentException when the file cannot be read
   */
  public final B file(final Path file) {
    final Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      properties.load(reader);
    } catch (IOException e) {
      throw new IllegalArgumentException("Cannot read configuration file " + file + ": " + e, e);
    }
    properties.stringPropertyNames().forEach(key -> set(key, properties.getProperty(key)));
    return self();
  }

  /** Reads the variables of an environment that set the catalogue's settings or Kafka settings. */
  public final B environment(final Map<String, String> environment) {
    return environment(environment, List.of());
  }

  /**
   * Reads the variables of an environment (usually {@code System.getenv()}) that set the
   * catalogue's settings, those of {@code otherSettings}, or Kafka settings.
   *
   * @param otherSettings settings of components started beside this one (the engine starts the
   *     admission plugin), which then reach them through {@link LoadedConfig#passThrough()}
   */
  public final B environment(
      final Map<String, String> environment, final List<Setting<?>> otherSettings) {
    final Map<String, String> keyByVariable = new HashMap<>();
    for (final List<Setting<?>> catalogue : List.of(settings, otherSettings)) {
      for (final Setting<?> setting : catalogue) {
        keyByVariable.put(setting.environmentName(), setting.key());
        // An alias's variable sets the alias, which build() (this one or the other component's)
        // resolves against the setting's own key.
        setting
            .deprecatedAliases()
            .forEach(alias -> keyByVariable.put(Setting.environmentName(alias), alias));
      }
    }
    // Sorted, so that two variables naming one key resolve the same way on every start.
    new TreeMap<>(environment)
        .forEach(
            (variable, value) -> {
              if (variable.startsWith(KAFKA_ENVIRONMENT_PREFIX)) {
                set(kafkaKey(variable), value);
              } else if (keyByVariable.containsKey(variable)) {
                set(keyByVariable.get(variable), value);
              }
            });
    return self();
  }

  /**
   * The configuration: the catalogue's settings, each missing one at its default (or at the value
   * of a deprecated alias); every other key passes through.
   *
   * @throws IllegalArgumentException naming the setting when a value does not parse
   */
  public final C build() {
    final Map<String, Object> typed = new HashMap<>();
    final Map<String, String> texts = new HashMap<>();
    final Map<String, String> passThrough = new HashMap<>(values);
    for (final Setting<?> setting : settings) {
      String given = passThrough.remove(setting.key());
      String givenAs = setting.key();
      for (final String alias : setting.deprecatedAliases()) {
        final String old = passThrough.remove(alias);
        if (old == null) {
          continue;
        }
        if (given == null) {
          given = old;
          givenAs = alias;
          warnOnce(
              alias
                  + " is deprecated: its value is used for "
                  + setting.key()
                  + "; set "
                  + setting.key()
                  + " instead");
        } else {
          warnOnce(
              alias
                  + " is deprecated and ignored: "
                  + givenAs
                  + " is set too and wins; set "
                  + setting.key()
                  + " only");
        }
      }
      final String text = given == null ? setting.defaultValue() : given.trim();
      typed.put(setting.key(), setting.parse(text));
      texts.put(setting.key(), text);
    }
    return create(new LoadedConfig(settings, typed, texts, passThrough));
  }

  /** Logs {@code message} as a warning unless this process has logged it already. */
  private static void warnOnce(final String message) {
    if (WARNED.add(message)) {
      LOG.warn(message);
    }
  }

  /** The configuration of the parsed settings. */
  protected abstract C create(LoadedConfig loaded);

  @SuppressWarnings("unchecked") // B is this class, as its bound says
  private B self() {
    return (B) this;
  }

  /** {@code QUOTAFLOW_KAFKA_SECURITY_PROTOCOL} names {@code security.protocol}. */
  static String kafkaKey(final String variable) {
    return variable
        .substring(KAFKA_ENVIRONMENT_PREFIX.length())
        .toLowerCase(Locale.ROOT)
        .replace('_', '.');
  }
}
