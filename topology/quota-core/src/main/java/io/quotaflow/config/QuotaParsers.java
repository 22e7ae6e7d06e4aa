package io.quotaflow.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.quotaflow.quota.Quantities;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.QuotaOptions.DerivedResourceRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Readers of the values of {@link QuotaSettings} that {@link Parsers} does not have. Each message
 * says what it expects, without the value: the reader (a setting, or {@code simulate}'s file) adds
 * the key and the value.
 */
public final class QuotaParsers {
  private static final Pattern DERIVED =
      Pattern.compile("(\\S+)\\s*->\\s*(\\S+)\\s*[x*]\\s*(\\d+)");

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private QuotaParsers() {}

  /**
   * One of the enum's constants by its name in any case; the message names them, lower case, with
   * "or" ({@code expected bound or running}).
   */
  public static <E extends Enum<E>> Function<String, E> choice(final Class<E> type) {
    final Map<String, E> byName = new LinkedHashMap<>();
    for (final E constant : type.getEnumConstants()) {
      byName.put(constant.name().toLowerCase(Locale.ROOT), constant);
    }
    final String expected = "expected " + String.join(" or ", byName.keySet());
    return text -> {
      final E constant = byName.get(text.toLowerCase(Locale.ROOT));
      if (constant == null) {
        throw new IllegalArgumentException(expected);
      }
      return constant;
    };
  }

  /** A whole percentage from 0 to 100. */
  public static int percent(final String text) {
    try {
      final int value = Integer.parseInt(text.trim());
      if (value >= 0 && value <= 100) {
        return value;
      }
    } catch (NumberFormatException e) {
      // Reported below.
    }
    throw new IllegalArgumentException("expected a whole percentage from 0 to 100");
  }

  /**
   * {@code source -> target x factor}, e.g. {@code nvidia.com/gpu -> quotaflow.io/gpu-memory x 32};
   * {@code *} may stand for {@code x} and the spaces may be left out.
   */
  public static DerivedResourceRule derivedResource(final String rule) {
    final Matcher matcher = DERIVED.matcher(rule.trim());
    if (!matcher.matches()) {
      throw new IllegalArgumentException(
          "\"" + rule.trim() + "\" is not a rule like nvidia.com/gpu->quotaflow.io/gpu-memory*32");
    }
    final long factor;
    try {
      factor = Long.parseLong(matcher.group(3));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("the factor of \"" + rule.trim() + "\" is too large");
    }
    return new DerivedResourceRule(matcher.group(1), matcher.group(2), factor);
  }

  /** Comma-separated {@link #derivedResource} rules; empty ones are skipped. */
  public static List<DerivedResourceRule> derivedResources(final String text) {
    return new ArrayList<>(Parsers.list(QuotaParsers::derivedResource).apply(text));
  }

  /**
   * A JSON object of quantities, {@code {"cpu": "4", "memory": "8Gi"}}; empty text is the empty
   * list.
   */
  public static ResourceList resources(final String text) {
    if (text.isBlank()) {
      return ResourceList.empty();
    }
    final JsonNode json;
    try {
      json = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("expected a JSON object of quantities");
    }
    if (json == null || !json.isObject()) {
      throw new IllegalArgumentException("expected a JSON object of quantities");
    }
    final Map<String, Long> amounts = new TreeMap<>();
    for (final Map.Entry<String, JsonNode> entry : json.properties()) {
      try {
        amounts.put(entry.getKey(), Quantities.parse(entry.getKey(), entry.getValue().asText()));
      } catch (Quantities.InvalidQuantityException e) {
        throw new IllegalArgumentException(entry.getKey() + ": " + e.getMessage(), e);
      }
    }
    return ResourceList.of(amounts);
  }
}
