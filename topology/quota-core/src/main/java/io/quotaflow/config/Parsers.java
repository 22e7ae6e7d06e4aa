package io.quotaflow.config;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Readers of setting values, one per type name of the documentation. Each gets trimmed text (see
 * {@link Setting#parse}) and throws an {@link IllegalArgumentException} saying what it expects; the
 * setting adds its key to the message.
 */
public final class Parsers {
  private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)?");

  private Parsers() {}

  /**
   * A positive duration: {@code 100ms}, {@code 1s}, {@code 2m}, {@code 1h}, {@code 1d}, a plain
   * number of milliseconds, or ISO-8601 ({@code PT90S}).
   */
  public static Duration duration(final String text) {
    if (text.startsWith("P") || text.startsWith("p")) {
      return positive(Duration.parse(text.toUpperCase(Locale.ROOT)));
    }
    final Matcher matcher = DURATION.matcher(text);
    if (!matcher.matches()) {
      throw new IllegalArgumentException("expected a duration such as 100ms, 1s, 2m, 1h or PT2M");
    }
    final long amount = Long.parseLong(matcher.group(1));
    final String unit = matcher.group(2) == null ? "ms" : matcher.group(2);
    return positive(
        switch (unit) {
          case "s" -> Duration.ofSeconds(amount);
          case "m" -> Duration.ofMinutes(amount);
          case "h" -> Duration.ofHours(amount);
          case "d" -> Duration.ofDays(amount);
          default -> Duration.ofMillis(amount);
        });
  }

  /** A positive {@linkplain #duration duration} of whole seconds (a step of history, say). */
  public static Duration wholeSeconds(final String text) {
    final Duration duration = duration(text);
    if (duration.toMillis() % 1_000 != 0) {
      throw new IllegalArgumentException("expected whole seconds, got '" + text + "'");
    }
    return duration;
  }

  /** {@code true} or {@code false} in any case, nothing else ({@code yes} is a typo, not true). */
  public static boolean bool(final String text) {
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException("expected true or false");
    };
  }

  /** An int of at least 1. */
  public static int positiveInt(final String text) {
    final int value = Integer.parseInt(text);
    if (value < 1) {
      throw new IllegalArgumentException("must be at least 1");
    }
    return value;
  }

  /** An int from 1 to {@code max}. */
  public static Function<String, Integer> atMost(final int max) {
    return text -> {
      final int value = positiveInt(text);
      if (value > max) {
        throw new IllegalArgumentException("must be at most " + max + ": " + text);
      }
      return value;
    };
  }

  /** An int of at least 0. */
  public static int nonNegativeInt(final String text) {
    final int value = Integer.parseInt(text);
    if (value < 0) {
      throw new IllegalArgumentException("must be at least 0");
    }
    return value;
  }

  /** A TCP port, 0 (any free port) to 65535. */
  public static int port(final String text) {
    final int port = Integer.parseInt(text);
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("expected a port between 0 and 65535");
    }
    return port;
  }

  /** A finite number above 0, such as a rate. */
  public static double positiveNumber(final String text) {
    final double value = Double.parseDouble(text);
    if (!(value > 0) || Double.isInfinite(value)) {
      throw new IllegalArgumentException("must be a positive number");
    }
    return value;
  }

  /** The text as it is, empty included (an unset path, say). */
  public static String text(final String text) {
    return text;
  }

  /** Text that is not empty. */
  public static String nonBlank(final String text) {
    if (text.isBlank()) {
      throw new IllegalArgumentException("must not be blank");
    }
    return text;
  }

  /** One of the enum's constants by its name in any case; messages list the lower-case names. */
  public static <E extends Enum<E>> Function<String, E> oneOf(final Class<E> type) {
    final Map<String, E> byName = new LinkedHashMap<>();
    for (final E constant : type.getEnumConstants()) {
      byName.put(constant.name().toLowerCase(Locale.ROOT), constant);
    }
    final List<String> names = List.copyOf(byName.keySet());
    return text -> {
      final E constant = byName.get(text.toLowerCase(Locale.ROOT));
      if (constant == null) {
        throw new IllegalArgumentException("expected one of " + names);
      }
      return constant;
    };
  }

  /**
   * Comma-separated items, each trimmed and read by {@code item}; empty items are skipped, so empty
   * text is the empty list.
   */
  public static <T> Function<String, List<T>> list(final Function<String, T> item) {
    return text ->
        Arrays.stream(text.split(","))
            .map(String::trim)
            .filter(part -> !part.isEmpty())
            .map(item)
            .toList();
  }

  private static Duration positive(final Duration duration) {
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("must be positive");
    }
    return duration;
  }
}
