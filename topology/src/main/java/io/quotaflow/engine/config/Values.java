package io.quotaflow.engine.config;

import io.quotaflow.tree.QuotaOptions.DerivedResourceRule;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parsers of setting values. */
final class Values {
  private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)?");
  private static final Pattern DERIVED =
      Pattern.compile("(\\S+)\\s*->\\s*(\\S+)\\s*[x*]\\s*(\\d+)");

  private Values() {}

  /** {@code 100ms}, {@code 1s}, {@code 2m}, {@code 1h}, {@code 1d}, ISO-8601, or milliseconds. */
  static Duration duration(final String text) {
    if (text.startsWith("P") || text.startsWith("p")) {
      return positive(Duration.parse(text.toUpperCase(Locale.ROOT)));
    }
    final Matcher matcher = DURATION.matcher(text);
    if (!matcher.matches()) {
      throw new IllegalArgumentException("expected a duration such as 100ms, 1s, 2m or PT2M");
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

  private static Duration positive(final Duration duration) {
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("must be positive");
    }
    return duration;
  }

  /** {@code true} or {@code false}, nothing else. */
  static boolean bool(final String text) {
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException("expected true or false");
    };
  }

  /** A positive int. */
  static int positiveInt(final String text) {
    final int value = Integer.parseInt(text);
    if (value < 1) {
      throw new IllegalArgumentException("must be at least 1");
    }
    return value;
  }

  /** One of the enum's constants, case-insensitive. */
  static <E extends Enum<E>> E oneOf(final Class<E> type, final String text) {
    try {
      return Enum.valueOf(type, text.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "expected one of "
              + Arrays.stream(type.getEnumConstants())
                  .map(c -> c.name().toLowerCase(Locale.ROOT))
                  .toList());
    }
  }

  /** Comma-separated rules {@code source -> target x factor}; empty text for none. */
  static List<DerivedResourceRule> derivedResources(final String text) {
    if (text.isBlank()) {
      return List.of();
    }
    return Arrays.stream(text.split(","))
        .map(String::trim)
        .map(
            rule -> {
              final Matcher matcher = DERIVED.matcher(rule);
              if (!matcher.matches()) {
                throw new IllegalArgumentException(
                    "expected rules like nvidia.com/gpu -> quotaflow.io/gpu-memory x 32, got '"
                        + rule
                        + "'");
              }
              return new DerivedResourceRule(
                  matcher.group(1), matcher.group(2), Long.parseLong(matcher.group(3)));
            })
        .toList();
  }
}
