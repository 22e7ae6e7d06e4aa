package io.quotaflow.config;

import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * One documented setting: its key, type, default and meaning, and how its text is read.
 *
 * @param key the key in a properties file; the environment variable is {@link #environmentName()}
 * @param type a short type name for the documentation (duration, boolean, int, ...)
 * @param defaultValue the default, as text
 * @param doc what the setting does
 * @param parser reads the (trimmed) text of a value; see {@link Parsers}
 * @param <T> the value type
 */
public record Setting<T>(
    String key, String type, String defaultValue, String doc, Function<String, T> parser) {

  /**
   * Requires every part and checks that the default parses.
   *
   * @throws IllegalArgumentException naming the key when the default does not parse
   */
  public Setting {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(defaultValue, "defaultValue");
    Objects.requireNonNull(doc, "doc");
    Objects.requireNonNull(parser, "parser");
    if (key.isBlank()) {
      throw new IllegalArgumentException("a setting needs a key");
    }
    parse(key, type, parser, defaultValue);
  }

  /** The environment variable that sets it: {@code QUOTAFLOW_} and the key in upper snake case. */
  public String environmentName() {
    return ConfigSources.ENVIRONMENT_PREFIX + key.toUpperCase(Locale.ROOT).replace('.', '_');
  }

  /**
   * The value of {@code text}.
   *
   * @throws IllegalArgumentException naming the key when the text does not parse
   */
  public T parse(final String text) {
    return parse(key, type, parser, text);
  }

  /** The same setting described differently, for a component that reads it for its own use. */
  public Setting<T> withDoc(final String otherDoc) {
    return new Setting<>(key, type, defaultValue, otherDoc, parser);
  }

  private static <T> T parse(
      final String key, final String type, final Function<String, T> parser, final String text) {
    try {
      return parser.apply(text.trim());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "Invalid value '" + text + "' for " + key + " (" + type + "): " + e.getMessage(), e);
    }
  }
}
