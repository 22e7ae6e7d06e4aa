package io.quotaflow.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The outcome of a {@link ConfigLoader}: the catalogue's settings parsed, and the remaining keys,
 * which pass through unchanged (Kafka client and Kafka Streams settings, and those of components
 * started beside this one). Immutable.
 */
public final class LoadedConfig implements SettingValues {
  private final List<Setting<?>> settings;
  private final Map<String, Object> values;
  private final Map<String, String> texts;
  private final Map<String, String> passThrough;

  LoadedConfig(
      final List<Setting<?>> settings,
      final Map<String, Object> values,
      final Map<String, String> texts,
      final Map<String, String> passThrough) {
    this.settings = List.copyOf(settings);
    this.values = Map.copyOf(values);
    this.texts = Map.copyOf(texts);
    this.passThrough = Map.copyOf(passThrough);
  }

  /** This configuration with {@code key} passed through as {@code value} unless it is set. */
  public LoadedConfig withPassThroughDefault(final String key, final String value) {
    if (passThrough.containsKey(key)) {
      return this;
    }
    final Map<String, String> more = new HashMap<>(passThrough);
    more.put(key, value);
    return new LoadedConfig(settings, values, texts, more);
  }

  /**
   * The value of a catalogue setting.
   *
   * @throws IllegalArgumentException when the setting is not in this configuration's catalogue
   */
  @Override
  public <T> T get(final Setting<T> setting) {
    final Object value = values.get(setting.key());
    if (value == null) {
      throw new IllegalArgumentException(setting.key() + " is not a setting of this catalogue");
    }
    @SuppressWarnings("unchecked") // the catalogue's setting of this key parsed it
    final T typed = (T) value;
    return typed;
  }

  /** Every key that is not in the catalogue, with its value. */
  public Map<String, String> passThrough() {
    return passThrough;
  }

  /** One pass-through value, if set. */
  public Optional<String> passThrough(final String key) {
    return Optional.ofNullable(passThrough.get(key));
  }

  /**
   * Every effective setting as {@code key = value} lines for the start-up log: the catalogue's
   * settings in its order, as given or defaulted, then the pass-through ones by key; secrets
   * masked.
   */
  public List<String> describe() {
    final List<String> lines = new ArrayList<>();
    for (final Setting<?> setting : settings) {
      lines.add(line(setting.key(), texts.get(setting.key())));
    }
    new TreeMap<>(passThrough).forEach((key, value) -> lines.add(line(key, value)));
    return List.copyOf(lines);
  }

  @Override
  public String toString() {
    return String.join(", ", describe());
  }

  private static String line(final String key, final String value) {
    return key + " = " + Secrets.shown(key, value);
  }
}
