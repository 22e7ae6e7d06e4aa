package io.quotaflow.dra;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The driver whose devices a DeviceClass selects, as far as it can be told without evaluating CEL:
 * the one driver its selectors compare {@code device.driver} with ({@code device.driver ==
 * "gpu.nvidia.com"}), else, when the class has no selector naming a driver, a driver named like the
 * class (NVIDIA's {@code gpu.nvidia.com} class and driver share their name). Nothing else of a
 * selector is evaluated (semantics.md section 22.3).
 */
final class ClassDriver {

  private static final Pattern DRIVER_EQUALS =
      Pattern.compile("device\\.driver\\s*==\\s*(?:\"([^\"]*)\"|'([^']*)')");

  private ClassDriver() {}

  /**
   * The driver of {@code className}; empty when its selectors name several drivers (an {@code ||}
   * of drivers, which an upper bound by one driver would understate).
   */
  static Optional<String> of(String className, Optional<DeviceClass> deviceClass) {
    final Set<String> drivers = new LinkedHashSet<>();
    final List<DeviceSelector> selectors =
        deviceClass.map(c -> c.getSpec() == null ? null : c.getSpec().getSelectors()).orElse(null);
    for (final DeviceSelector selector :
        selectors == null ? List.<DeviceSelector>of() : selectors) {
      if (selector.getCel() == null || selector.getCel().getExpression() == null) {
        continue;
      }
      final Matcher matcher = DRIVER_EQUALS.matcher(selector.getCel().getExpression());
      while (matcher.find()) {
        drivers.add(matcher.group(1) != null ? matcher.group(1) : matcher.group(2));
      }
    }
    if (drivers.isEmpty()) {
      return Optional.of(className);
    }
    return drivers.size() == 1 ? Optional.of(drivers.iterator().next()) : Optional.empty();
  }
}
