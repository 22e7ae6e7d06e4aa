package io.quotaflow.config;

import java.util.List;
import java.util.Locale;

/** Which settings hold secrets, so that they are never logged. */
public final class Secrets {
  /** What a secret's value is shown as. */
  public static final String MASK = "[hidden]";

  // Kafka's own secrets: *.password, sasl.jaas.config, ssl.key*, and any *secret* or *token*.
  private static final List<String> MARKERS =
      List.of("password", "secret", "token", "sasl.jaas.config", "ssl.key", "credentials");

  private Secrets() {}

  /** True when the value of {@code key} must not be shown. */
  public static boolean isSecret(final String key) {
    final String lower = key.toLowerCase(Locale.ROOT);
    return MARKERS.stream().anyMatch(lower::contains);
  }

  /** The value as it may be shown for {@code key}. */
  public static String shown(final String key, final Object value) {
    return isSecret(key) ? MASK : String.valueOf(value);
  }
}
