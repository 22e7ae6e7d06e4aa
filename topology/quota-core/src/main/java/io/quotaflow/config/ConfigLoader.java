package io.quotaflow.config;

import java.util.List;

/**
 * The sources of a configuration read into a plain {@link LoadedConfig}, for a catalogue without a
 * configuration class of its own (the admission plugin reads its settings from the engine's
 * pass-through values this way).
 */
public final class ConfigLoader extends ConfigSources<ConfigLoader, LoadedConfig> {
  private ConfigLoader(final List<Setting<?>> settings) {
    super(settings);
  }

  /** A loader for the settings of one catalogue, in the order they are described. */
  public static ConfigLoader of(final List<Setting<?>> settings) {
    return new ConfigLoader(settings);
  }

  @Override
  protected LoadedConfig create(final LoadedConfig loaded) {
    return loaded;
  }
}
