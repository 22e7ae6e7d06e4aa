package io.quotaflow.kafka;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.AbstractConfig;

/**
 * Picks, from a configuration shared by several clients, the settings one kind of client knows, so
 * that it does not log every other key as unknown. The definitions of config providers ({@code
 * config.providers.NAME.class}, {@code .param.*}) are kept although no client lists them: without
 * them a <code>${dir:...}</code> reference would reach the client unresolved.
 */
public final class ClientSettings {

  private static final String PROVIDER_PREFIX = AbstractConfig.CONFIG_PROVIDERS_CONFIG + ".";

  private ClientSettings() {}

  /**
   * The entries of {@code settings} whose key is in {@code configNames} (e.g. {@code
   * AdminClientConfig.configNames()}) or defines a config provider.
   */
  public static Map<String, Object> knownTo(
      final Set<String> configNames, final Map<String, ?> settings) {
    final Map<String, Object> known = new HashMap<>();
    settings.forEach(
        (key, value) -> {
          if (configNames.contains(key) || key.startsWith(PROVIDER_PREFIX)) {
            known.put(key, value);
          }
        });
    return known;
  }
}
