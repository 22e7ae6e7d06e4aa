package io.quotaflow.simulate;

import io.quotaflow.config.ConfigLoader;
import io.quotaflow.config.QuotaParsers;
import io.quotaflow.config.QuotaSemantics;
import io.quotaflow.config.QuotaSettings;
import io.quotaflow.config.Setting;
import io.quotaflow.dra.CapacityRule;
import io.quotaflow.dra.DeviceClassMapping;
import io.quotaflow.dra.DeviceClassMappings;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.QuotaOptions.DerivedResourceRule;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The settings of a simulation, read from a properties file ({@code --config}): the engine's
 * settings of quota semantics ({@link QuotaSettings}), each under its {@linkplain
 * QuotaSettings#fileName short name}, so that a file gives {@code simulate} what the same settings
 * give the engine. An unknown key or a bad value is bad input, so that a typo never goes unnoticed.
 *
 * <pre>
 * min-scale=true
 * default-shared-weight=max
 * used-policy=bound
 * count-terminating-pods=true
 * only-ready-schedulable-nodes=false
 * default-group-max={"cpu": "4", "memory": "8Gi"}
 * derived-resources=nvidia.com/gpu->quotaflow.io/gpu-memory*32
 * reservation-max-locked-percent=50
 * guarantee-usage=false
 * parent-pods=false
 * device-classes=gpu.nvidia.com -> nvidia.com/gpu x 1 [memory / 1Gi -> quotaflow.io/gpu-memory]
 * namespace-binding-open=true
 * special-group-namespaces=kube-system,quotaflow
 * </pre>
 */
public final class SimulateConfig {

  /** Every setting of the file by its name, in the catalogue's order. */
  private static final Map<String, Setting<?>> BY_NAME = new LinkedHashMap<>();

  static {
    QuotaSettings.ALL.forEach(setting -> BY_NAME.put(QuotaSettings.fileName(setting), setting));
  }

  private SimulateConfig() {}

  /** The names a file may use, in the catalogue's order. */
  public static List<String> names() {
    return List.copyOf(BY_NAME.keySet());
  }

  /** Reads a properties file; every setting it does not name keeps the engine's default. */
  public static QuotaSemantics read(Path file) throws BadInputException {
    final Properties properties = properties(file);
    final Map<String, String> values = new TreeMap<>();
    properties
        .stringPropertyNames()
        .forEach(name -> values.put(name, properties.getProperty(name)));
    return read(file.toString(), values);
  }

  /** The quota options of a properties file (for the commands that need no more). */
  public static QuotaOptions load(Path file) throws BadInputException {
    return read(file).options();
  }

  /**
   * One line per resource that a device class's capacity rule derives and a derived-resource rule
   * also derives from the class's resource: both add (semantics.md section 22.1), so the resource
   * would be counted twice for devices claimed through DRA.
   */
  static List<String> doubleDerivations(
      DeviceClassMappings deviceClasses, List<DerivedResourceRule> derivedResources) {
    final List<String> lines = new ArrayList<>();
    for (final DeviceClassMapping mapping : deviceClasses.all()) {
      for (final CapacityRule capacity : mapping.capacities()) {
        for (final DerivedResourceRule rule : derivedResources) {
          if (rule.source().equals(mapping.resource())
              && rule.target().equals(capacity.resource())) {
            lines.add(
                QuotaSettings.fileName(QuotaSettings.DEVICE_CLASSES)
                    + ": "
                    + mapping.deviceClass()
                    + " derives "
                    + capacity.resource()
                    + " from its devices' "
                    + capacity.capacity()
                    + " and "
                    + QuotaSettings.fileName(QuotaSettings.DERIVED_RESOURCES)
                    + " derives it from "
                    + rule.source()
                    + " too: devices claimed through DRA count for both");
          }
        }
      }
    }
    return lines;
  }

  private static Properties properties(Path file) throws BadInputException {
    final Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      properties.load(reader);
    } catch (IOException e) {
      throw BadInputException.inFile(file.toString(), "cannot read the config file: " + e);
    }
    return properties;
  }

  /** The semantics of {@code values}, file names to values, read from {@code file}. */
  static QuotaSemantics read(String file, Map<String, String> values) throws BadInputException {
    final ConfigLoader loader = ConfigLoader.of(QuotaSettings.ALL);
    for (final Map.Entry<String, String> entry : new TreeMap<>(values).entrySet()) {
      final Setting<?> setting = setting(file, entry.getKey());
      final String value = entry.getValue().trim();
      try {
        setting.parser().apply(value);
      } catch (RuntimeException e) {
        throw BadInputException.inFile(
            file, entry.getKey() + ": " + e.getMessage() + ", found \"" + value + "\"");
      }
      loader.set(setting.key(), value);
    }
    return QuotaSettings.read(loader.build());
  }

  /** Parses {@code source->target*factor}, comma separated; {@code x} may stand for {@code *}. */
  static List<DerivedResourceRule> parseRules(String text) {
    return QuotaParsers.derivedResources(text);
  }

  private static Setting<?> setting(String file, String name) throws BadInputException {
    final Setting<?> setting = BY_NAME.get(name);
    if (setting == null) {
      throw BadInputException.inFile(
          file, "unknown setting \"" + name + "\" (known: " + String.join(", ", names()) + ")");
    }
    return setting;
  }
}
