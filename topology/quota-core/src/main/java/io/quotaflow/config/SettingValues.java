package io.quotaflow.config;

/**
 * Typed values of settings, however they were read: a {@link LoadedConfig}, the engine's
 * configuration. What {@link QuotaSettings#read} reads the quota semantics from.
 */
public interface SettingValues {
  /**
   * The value of {@code setting}.
   *
   * @throws IllegalArgumentException when the setting is not one these values hold
   */
  <T> T get(Setting<T> setting);
}
