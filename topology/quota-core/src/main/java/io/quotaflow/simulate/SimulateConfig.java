package io.quotaflow.simulate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.quotaflow.dra.CapacityRule;
import io.quotaflow.dra.DeviceClassMapping;
import io.quotaflow.dra.DeviceClassMappings;
import io.quotaflow.quota.Quantities;
import io.quotaflow.quota.Quantities.InvalidQuantityException;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.QuotaOptions.DefaultWeightPolicy;
import io.quotaflow.tree.QuotaOptions.DerivedResourceRule;
import io.quotaflow.tree.QuotaOptions.UsedPolicy;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The settings of a simulation, read from a properties file ({@code --config}). Every key is one of
 * {@link Key}; an unknown key or a bad value is bad input, so that a typo never goes unnoticed.
 *
 * <pre>
 * min-scale=true
 * default-shared-weight=max
 * used-policy=bound
 * count-terminating-pods=true
 * only-ready-schedulable-nodes=false
 * default-group-max={"cpu": "4", "memory": "8Gi"}
 * derived-resources=nvidia.com/gpu->quotaflow.io/gpu-memory*32, nvidia.com/mig-1g.10gb->quotaflow.io/gpu-memory*10
 * reservation-max-locked-percent=50
 * guarantee-usage=false
 * parent-pods=false
 * device-classes=gpu.nvidia.com -> nvidia.com/gpu x 1 [memory / 1Gi -> quotaflow.io/gpu-memory]
 * </pre>
 *
 * {@code device-classes} is not a quota option: it says what the devices pods claim through DRA
 * count as ({@link DeviceClassMappings}), read by {@link #deviceClasses}.
 */
public final class SimulateConfig {

  /** The keys of the file; the first three are also command-line flags, which win. */
  enum Key {
    MIN_SCALE("min-scale"),
    DEFAULT_SHARED_WEIGHT("default-shared-weight"),
    USED_POLICY("used-policy"),
    COUNT_TERMINATING_PODS("count-terminating-pods"),
    ONLY_READY_SCHEDULABLE_NODES("only-ready-schedulable-nodes"),
    DEFAULT_GROUP_MAX("default-group-max"),
    DERIVED_RESOURCES("derived-resources"),
    RESERVATION_MAX_LOCKED_PERCENT("reservation-max-locked-percent"),
    GUARANTEE_USAGE("guarantee-usage"),
    PARENT_PODS("parent-pods"),
    DEVICE_CLASSES("device-classes");

    final String property;

    Key(String property) {
      this.property = property;
    }
  }

  private static final Pattern RULE =
      Pattern.compile("\\s*(\\S+?)\\s*->\\s*(\\S+?)\\s*(?:\\*|\\s+x\\s+)\\s*(\\d+)\\s*");

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private SimulateConfig() {}

  /** Reads a properties file over {@code defaults}. */
  public static QuotaOptions load(Path file, QuotaOptions defaults) throws BadInputException {
    final Properties properties = properties(file);
    final Map<String, String> values = new TreeMap<>();
    properties
        .stringPropertyNames()
        .forEach(name -> values.put(name, properties.getProperty(name)));
    return apply(file.toString(), values, defaults);
  }

  /** The device class mappings of the file ({@link DeviceClassMappings#defaults} if unset). */
  public static DeviceClassMappings deviceClasses(Path file) throws BadInputException {
    final Properties properties = properties(file);
    final String value = properties.getProperty(Key.DEVICE_CLASSES.property);
    return value == null
        ? DeviceClassMappings.defaults()
        : mappings(file.toString(), Key.DEVICE_CLASSES, value);
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
                Key.DEVICE_CLASSES.property
                    + ": "
                    + mapping.deviceClass()
                    + " derives "
                    + capacity.resource()
                    + " from its devices' "
                    + capacity.capacity()
                    + " and "
                    + Key.DERIVED_RESOURCES.property
                    + " derives it from "
                    + rule.source()
                    + " too: devices claimed through DRA count for both");
          }
        }
      }
    }
    return lines;
  }

  private static DeviceClassMappings mappings(String file, Key key, String value)
      throws BadInputException {
    try {
      return DeviceClassMappings.parse(value);
    } catch (IllegalArgumentException e) {
      throw BadInputException.inFile(file, key.property + ": " + e.getMessage());
    }
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

  static QuotaOptions apply(String file, Map<String, String> values, QuotaOptions defaults)
      throws BadInputException {
    QuotaOptions options = defaults;
    for (final Map.Entry<String, String> entry : values.entrySet()) {
      final Key key = key(file, entry.getKey());
      final String value = entry.getValue().trim();
      options =
          switch (key) {
            case MIN_SCALE -> options.withMinScaling(bool(file, key, value));
            case DEFAULT_SHARED_WEIGHT ->
                options.withDefaultWeight(
                    choice(file, key, value, DefaultWeightPolicy.class, "max or min"));
            case USED_POLICY ->
                options.withUsedPolicy(
                    choice(file, key, value, UsedPolicy.class, "bound or running"));
            case COUNT_TERMINATING_PODS -> options.withCountTerminatingPods(bool(file, key, value));
            case ONLY_READY_SCHEDULABLE_NODES ->
                options.withOnlyReadySchedulableNodes(bool(file, key, value));
            case DEFAULT_GROUP_MAX -> options.withDefaultGroupMax(resources(file, key, value));
            case DERIVED_RESOURCES -> options.withDerivedResources(rules(file, key, value));
            case RESERVATION_MAX_LOCKED_PERCENT ->
                options.withReservationMaxLockedPercent(percent(file, key, value));
            case GUARANTEE_USAGE -> options.withGuaranteeUsage(bool(file, key, value));
            case PARENT_PODS -> options.withParentPods(bool(file, key, value));
            case DEVICE_CLASSES -> {
              mappings(file, key, value); // read by deviceClasses; checked here with the others
              yield options;
            }
          };
    }
    return options;
  }

  /** Parses {@code source->target*factor}, comma separated; {@code x} may stand for {@code *}. */
  static List<DerivedResourceRule> parseRules(String text) {
    final List<DerivedResourceRule> rules = new ArrayList<>();
    for (final String part : text.split(",")) {
      if (part.isBlank()) {
        continue;
      }
      final Matcher matcher = RULE.matcher(part);
      if (!matcher.matches()) {
        throw new IllegalArgumentException(
            "\""
                + part.trim()
                + "\" is not a rule like nvidia.com/gpu->quotaflow.io/gpu-memory*32");
      }
      final long factor;
      try {
        factor = Long.parseLong(matcher.group(3));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("the factor of \"" + part.trim() + "\" is too large");
      }
      rules.add(new DerivedResourceRule(matcher.group(1), matcher.group(2), factor));
    }
    return rules;
  }

  private static Key key(String file, String name) throws BadInputException {
    for (final Key key : Key.values()) {
      if (key.property.equals(name)) {
        return key;
      }
    }
    final List<String> known = new ArrayList<>();
    for (final Key key : Key.values()) {
      known.add(key.property);
    }
    throw BadInputException.inFile(
        file, "unknown setting \"" + name + "\" (known: " + String.join(", ", known) + ")");
  }

  private static boolean bool(String file, Key key, String value) throws BadInputException {
    if ("true".equalsIgnoreCase(value) || "false".equalsIgnoreCase(value)) {
      return Boolean.parseBoolean(value);
    }
    throw invalid(file, key, value, "true or false");
  }

  private static int percent(String file, Key key, String value) throws BadInputException {
    try {
      final int percent = Integer.parseInt(value);
      if (percent >= 0 && percent <= 100) {
        return percent;
      }
    } catch (NumberFormatException e) {
      // Reported below with what is expected.
    }
    throw invalid(file, key, value, "a whole percentage from 0 to 100");
  }

  private static <E extends Enum<E>> E choice(
      String file, Key key, String value, Class<E> type, String expected) throws BadInputException {
    for (final E constant : type.getEnumConstants()) {
      if (constant.name().toLowerCase(Locale.ROOT).equals(value.toLowerCase(Locale.ROOT))) {
        return constant;
      }
    }
    throw invalid(file, key, value, expected);
  }

  private static ResourceList resources(String file, Key key, String value)
      throws BadInputException {
    final JsonNode json;
    try {
      json = JSON.readTree(value);
    } catch (JsonProcessingException e) {
      throw invalid(file, key, value, "a JSON object of quantities");
    }
    if (json == null || !json.isObject()) {
      throw invalid(file, key, value, "a JSON object of quantities");
    }
    final Map<String, Long> amounts = new TreeMap<>();
    for (final Map.Entry<String, JsonNode> entry : json.properties()) {
      try {
        amounts.put(entry.getKey(), Quantities.parse(entry.getKey(), entry.getValue().asText()));
      } catch (InvalidQuantityException e) {
        throw BadInputException.inFile(
            file, key.property + ": " + entry.getKey() + ": " + e.getMessage());
      }
    }
    return ResourceList.of(amounts);
  }

  private static List<DerivedResourceRule> rules(String file, Key key, String value)
      throws BadInputException {
    try {
      return parseRules(value);
    } catch (IllegalArgumentException e) {
      throw BadInputException.inFile(file, key.property + ": " + e.getMessage());
    }
  }

  private static BadInputException invalid(String file, Key key, String value, String expected) {
    return BadInputException.inFile(
        file, key.property + ": expected " + expected + ", found \"" + value + "\"");
  }
}
