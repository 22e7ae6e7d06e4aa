package io.quotaflow.dra;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the devices of a DeviceClass no mapping names count as (setting {@code
 * quota.device.unmapped.class}, semantics.md section 22.9): {@code deny}, the default, charges
 * nothing and makes them unresolved (admission denies the pod, the engine does not honour its
 * {@code preemptible: "false"}); {@code RESOURCE [x N]} charges each such device {@code N} (default
 * 1) of {@code RESOURCE}, e.g. {@code nvidia.com/gpu}, whatever the class.
 *
 * @param resource the fallback resource; empty for {@code deny}
 * @param perDevice how much of it one device is (at least 1)
 */
public record UnmappedClasses(Optional<String> resource, long perDevice) {

  /** The default: unmapped classes are unresolved, never free. */
  public static final String DENY_SETTING = "deny";

  public static final UnmappedClasses DENY = new UnmappedClasses(Optional.empty(), 1);

  private static final Pattern FALLBACK =
      Pattern.compile("\\s*(\\S+?)(?:\\s*(?:\\*|\\s+x\\s+)\\s*(\\d+))?\\s*");

  public UnmappedClasses {
    Objects.requireNonNull(resource, "resource");
    if (perDevice < 1) {
      throw new IllegalArgumentException("an unmapped device must count as at least 1");
    }
  }

  /**
   * Reads the setting: {@code deny} or {@code RESOURCE [x N]}.
   *
   * @throws IllegalArgumentException when it is neither
   */
  public static UnmappedClasses parse(String setting) {
    if (setting.isBlank() || setting.trim().equals(DENY_SETTING)) {
      return DENY;
    }
    final Matcher matcher = FALLBACK.matcher(setting);
    if (!matcher.matches() || matcher.group(1).contains("->")) {
      throw new IllegalArgumentException(
          "\"" + setting + "\" is neither deny nor a fallback like nvidia.com/gpu x 1");
    }
    try {
      return new UnmappedClasses(
          Optional.of(matcher.group(1)),
          matcher.group(2) == null ? 1 : Long.parseLong(matcher.group(2)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "the count per device of \"" + setting + "\" is too large");
    }
  }

  /** The mapping {@code deviceClass} is charged by; empty with {@code deny} or a blank class. */
  Optional<DeviceClassMapping> mapping(String deviceClass) {
    if (resource.isEmpty() || deviceClass == null || deviceClass.isBlank()) {
      return Optional.empty();
    }
    return Optional.of(new DeviceClassMapping(deviceClass, resource.get(), perDevice, List.of()));
  }

  @Override
  public String toString() {
    return resource.map(r -> r + " x " + perDevice).orElse(DENY_SETTING);
  }
}
