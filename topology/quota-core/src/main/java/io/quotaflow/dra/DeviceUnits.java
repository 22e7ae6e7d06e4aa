package io.quotaflow.dra;

import io.quotaflow.quota.ResourceList;
import java.util.Map;

/** The quota resources of some devices of one class under its mapping. Exact, saturating. */
final class DeviceUnits {

  private DeviceUnits() {}

  /**
   * {@code devices × perDevice} of the mapped resource, plus each capacity rule's units of the
   * given capacity sums (a capacity the devices do not publish derives nothing).
   *
   * @param capacityUnits per derived resource, its units already summed over the devices
   */
  static ResourceList of(
      DeviceClassMapping mapping, long devices, Map<String, Long> capacityUnits) {
    ResourceList result = ResourceList.of(mapping.resource(), times(devices, mapping.perDevice()));
    for (final CapacityRule rule : mapping.capacities()) {
      final long units = capacityUnits.getOrDefault(rule.resource(), 0L);
      if (units > 0) {
        result = result.plus(ResourceList.of(rule.resource(), units));
      }
    }
    return result;
  }

  /** {@code a × b} for non-negative operands, saturated at {@link Long#MAX_VALUE}. */
  static long times(long a, long b) {
    return Math.multiplyHigh(a, b) != 0 || a * b < 0 ? Long.MAX_VALUE : a * b;
  }
}
