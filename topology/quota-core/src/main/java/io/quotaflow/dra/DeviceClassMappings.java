package io.quotaflow.dra;

import io.quotaflow.quota.Quantities;
import io.quotaflow.quota.Quantities.InvalidQuantityException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which quota resources the devices of each DeviceClass count as (semantics.md section 22.1). A
 * class without a mapping is never guessed: its devices are reported and not charged.
 *
 * <p>The setting is a list of entries separated by {@code ;}, one per class:
 *
 * <pre>
 * gpu.nvidia.com -> nvidia.com/gpu x 1 [memory / 1Gi -> quotaflow.io/gpu-memory]; tpu.example.com -> example.com/tpu
 * </pre>
 *
 * The count per device ({@code x n} or {@code * n}) defaults to 1; the bracket, optional, lists
 * comma-separated capacity rules {@code capacity [/ unit] -> resource}, the unit a Kubernetes
 * quantity (default 1). A ConfigMap gives the same entries one per key: the key is the class, the
 * value the rest of the entry ({@code nvidia.com/gpu x 1 [memory / 1Gi ->
 * quotaflow.io/gpu-memory]}).
 */
public final class DeviceClassMappings {

  /** NVIDIA's DRA driver names its GPU class {@code gpu.nvidia.com}; its devices are GPUs. */
  public static final String DEFAULT_SETTING = "gpu.nvidia.com -> nvidia.com/gpu x 1";

  private static final Pattern ENTRY =
      Pattern.compile("\\s*(\\S+?)\\s*->\\s*(\\S+?)(?:\\s*(?:\\*|\\s+x\\s+)\\s*(\\d+))?\\s*");
  private static final Pattern ENTRY_WITH_CAPACITIES =
      Pattern.compile("([^\\[\\]]*?)\\s*\\[([^\\[\\]]*)\\]\\s*");
  private static final Pattern CAPACITY =
      Pattern.compile("\\s*([^\\s/]+?)\\s*(?:/\\s*(\\S+?)\\s*)?->\\s*(\\S+)\\s*");

  private final Map<String, DeviceClassMapping> byClass;
  private final UnmappedClasses unmapped;

  private DeviceClassMappings(Map<String, DeviceClassMapping> byClass, UnmappedClasses unmapped) {
    this.byClass = Map.copyOf(byClass);
    this.unmapped = unmapped;
  }

  private DeviceClassMappings(Map<String, DeviceClassMapping> byClass) {
    this(byClass, UnmappedClasses.DENY);
  }

  /** These mappings, with {@code value} for the classes they do not name (section 22.9). */
  public DeviceClassMappings withUnmapped(UnmappedClasses value) {
    return new DeviceClassMappings(byClass, value);
  }

  /** What the classes these mappings do not name count as. */
  public UnmappedClasses unmapped() {
    return unmapped;
  }

  /** The default: {@value #DEFAULT_SETTING}. */
  public static DeviceClassMappings defaults() {
    return parse(DEFAULT_SETTING);
  }

  public static DeviceClassMappings of(Collection<DeviceClassMapping> mappings) {
    final Map<String, DeviceClassMapping> byClass = new TreeMap<>();
    for (final DeviceClassMapping mapping : mappings) {
      if (byClass.put(mapping.deviceClass(), mapping) != null) {
        throw new IllegalArgumentException(
            "device class " + mapping.deviceClass() + " is mapped twice");
      }
    }
    return new DeviceClassMappings(byClass);
  }

  /**
   * Parses the setting; a blank one maps no class.
   *
   * @throws IllegalArgumentException naming the entry that cannot be read
   */
  public static DeviceClassMappings parse(String setting) {
    final List<DeviceClassMapping> mappings = new ArrayList<>();
    for (final String entry : setting.split(";")) {
      if (!entry.isBlank()) {
        mappings.add(entry(entry.trim()));
      }
    }
    return of(mappings);
  }

  /** Reads a ConfigMap's data: each key a DeviceClass, each value the rest of its entry. */
  public static DeviceClassMappings fromConfigMapData(Map<String, String> data) {
    final List<DeviceClassMapping> mappings = new ArrayList<>();
    for (final Map.Entry<String, String> entry : new TreeMap<>(data).entrySet()) {
      mappings.add(entry(entry.getKey().trim() + " -> " + entry.getValue().trim()));
    }
    return of(mappings);
  }

  public Optional<DeviceClassMapping> find(String deviceClass) {
    return Optional.ofNullable(byClass.get(deviceClass));
  }

  /**
   * The mapping a claimed device of {@code deviceClass} is charged by: its own, else the fallback
   * of {@link #unmapped()}; empty when neither (the devices are unresolved).
   */
  Optional<DeviceClassMapping> charging(String deviceClass) {
    final DeviceClassMapping own = byClass.get(deviceClass);
    return own != null ? Optional.of(own) : unmapped.mapping(deviceClass);
  }

  /** The mappings in class name order. */
  public List<DeviceClassMapping> all() {
    return List.copyOf(new TreeMap<>(byClass).values());
  }

  private static DeviceClassMapping entry(String entry) {
    String head = entry;
    final List<CapacityRule> capacities = new ArrayList<>();
    final Matcher withCapacities = ENTRY_WITH_CAPACITIES.matcher(entry);
    if (withCapacities.matches()) {
      head = withCapacities.group(1);
      for (final String rule : withCapacities.group(2).split(",")) {
        if (!rule.isBlank()) {
          capacities.add(capacity(entry, rule));
        }
      }
    }
    final Matcher matcher = ENTRY.matcher(head);
    if (!matcher.matches()) {
      throw new IllegalArgumentException(
          "\""
              + entry
              + "\" is not a device class mapping like gpu.nvidia.com -> nvidia.com/gpu x 1"
              + " [memory / 1Gi -> quotaflow.io/gpu-memory]");
    }
    final long perDevice;
    try {
      perDevice = matcher.group(3) == null ? 1 : Long.parseLong(matcher.group(3));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("the count per device of \"" + entry + "\" is too large");
    }
    try {
      return new DeviceClassMapping(matcher.group(1), matcher.group(2), perDevice, capacities);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("\"" + entry + "\": " + e.getMessage());
    }
  }

  private static CapacityRule capacity(String entry, String rule) {
    final Matcher matcher = CAPACITY.matcher(rule);
    if (!matcher.matches()) {
      throw new IllegalArgumentException(
          "\""
              + rule.trim()
              + "\" in \""
              + entry
              + "\" is not a capacity rule like memory / 1Gi -> quotaflow.io/gpu-memory");
    }
    final long unit;
    try {
      unit = matcher.group(2) == null ? 1 : Quantities.parseUnits(matcher.group(2));
    } catch (InvalidQuantityException e) {
      throw new IllegalArgumentException(
          "the unit of \"" + rule.trim() + "\" in \"" + entry + "\": " + e.getMessage());
    }
    try {
      return new CapacityRule(matcher.group(1), matcher.group(3), unit);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("\"" + entry + "\": " + e.getMessage());
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DeviceClassMappings other
        && byClass.equals(other.byClass)
        && unmapped.equals(other.unmapped);
  }

  @Override
  public int hashCode() {
    return byClass.hashCode() * 31 + unmapped.hashCode();
  }

  @Override
  public String toString() {
    return all().toString();
  }
}
