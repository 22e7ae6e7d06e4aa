package io.quotaflow.connect;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parsers of setting values: durations as {@code 500ms}, {@code 30s}, {@code 5m} or ISO-8601. */
final class Parse {

  private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)?");

  private Parse() {}

  static Duration duration(final String text) {
    final Matcher matcher = DURATION.matcher(text);
    final Duration duration;
    if (matcher.matches()) {
      final long amount = Long.parseLong(matcher.group(1));
      final String unit = matcher.group(2) == null ? "ms" : matcher.group(2);
      duration =
          switch (unit) {
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            case "d" -> Duration.ofDays(amount);
            default -> Duration.ofMillis(amount);
          };
    } else {
      duration = Duration.parse(text.toUpperCase(Locale.ROOT));
    }
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("must be positive");
    }
    return duration;
  }

  static boolean bool(final String text) {
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException("must be true or false");
    };
  }

  static int positiveInt(final String text) {
    final int value = Integer.parseInt(text);
    if (value < 1) {
      throw new IllegalArgumentException("must be at least 1");
    }
    return value;
  }

  static double positiveRate(final String text) {
    final double value = Double.parseDouble(text);
    if (!(value > 0) || Double.isInfinite(value)) {
      throw new IllegalArgumentException("must be a positive number");
    }
    return value;
  }

  static String nonBlank(final String text) {
    if (text.isBlank()) {
      throw new IllegalArgumentException("must not be blank");
    }
    return text;
  }
}
