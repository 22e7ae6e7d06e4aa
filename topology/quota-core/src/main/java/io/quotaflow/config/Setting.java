package io.quotaflow.config;

import java.util.ArrayList;
import java.util.List;
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
 * @param deprecatedAliases former keys of the setting, still read when the key itself is not set
 *     (see {@link #withDeprecatedAlias(String)}); usually none
 * @param <T> the value type
 */
public record Setting<T>(
    String key,
    String type,
    String defaultValue,
    String doc,
    Function<String, T> parser,
    List<String> deprecatedAliases) {

  /**
   * Requires every part and checks that the default parses.
   *
   * @throws IllegalArgumentException naming the key when the default does not parse, or when an
   *     alias is blank or the key itself
   */
  public Setting {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(defaultValue, "defaultValue");
    Objects.requireNonNull(doc, "doc");
    Objects.requireNonNull(parser, "parser");
    deprecatedAliases = List.copyOf(deprecatedAliases);
    if (key.isBlank()) {
      throw new IllegalArgumentException("a setting needs a key");
    }
    for (final String alias : deprecatedAliases) {
      if (alias.isBlank() || alias.equals(key)) {
        throw new IllegalArgumentException("invalid alias '" + alias + "' for " + key);
      }
    }
    parse(key, type, parser, defaultValue);
  }

  /** A setting without aliases. */
  public Setting(
      final String key,
      final String type,
      final String defaultValue,
      final String doc,
      final Function<String, T> parser) {
    this(key, type, defaultValue, doc, parser, List.of());
  }

  /** The environment variable that sets it: {@code QUOTAFLOW_} and the key in upper snake case. */
  public String environmentName() {
    return environmentName(key);
  }

  /** The environment variable of {@code key}: {@code QUOTAFLOW_} and it in upper snake case. */
  public static String environmentName(final String key) {
    return ConfigSources.ENVIRONMENT_PREFIX + key.toUpperCase(Locale.ROOT).replace('.', '_');
  }

  /**
   * This setting also read under {@code oldKey}, a key it had before, in every source (a properties
   * file, the environment variable of {@code oldKey}, explicit values). A value under {@code
   * oldKey} is used only when the key itself is not set, with a warning that names the key to use;
   * when both are set the key wins, and that is logged too (see {@link ConfigSources}).
   */
  public Setting<T> withDeprecatedAlias(final String oldKey) {
    final List<String> aliases = new ArrayList<>(deprecatedAliases);
    aliases.add(Objects.requireNonNull(oldKey, "oldKey"));
    return new Setting<>(key, type, defaultValue, doc, parser, aliases);
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
    return new Setting<>(key, type, defaultValue, otherDoc, parser, deprecatedAliases);
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
