package io.quotaflow.engine.config;

import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * One documented setting of the engine: its key, type, default and meaning.
 *
 * @param key the key in a properties file; the environment variable is {@link #environmentName()}
 * @param type a short type name for the documentation (duration, boolean, int, ...)
 * @param defaultValue the default, as text
 * @param doc what the setting does
 * @param parser reads the text of a value
 * @param <T> the value type
 */
public record Setting<T>(
    String key, String type, String defaultValue, String doc, Function<String, T> parser) {

  /** Requires every part and checks that the default parses. */
  public Setting {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(defaultValue, "defaultValue");
    Objects.requireNonNull(doc, "doc");
    Objects.requireNonNull(parser, "parser");
    parser.apply(defaultValue);
  }

  /** The environment variable that sets it: {@code QUOTAFLOW_} and the key in upper snake case. */
  public String environmentName() {
    return EngineConfig.ENVIRONMENT_PREFIX + key.toUpperCase(Locale.ROOT).replace('.', '_');
  }

  /**
   * The value of {@code text}.
   *
   * @throws IllegalArgumentException naming the key when the text does not parse
   */
  public T parse(final String text) {
    try {
      return parser.apply(text.trim());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "Invalid value '" + text + "' for " + key + " (" + type + "): " + e.getMessage(), e);
    }
  }
}
