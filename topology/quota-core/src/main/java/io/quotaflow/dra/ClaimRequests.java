package io.quotaflow.dra;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import io.quotaflow.quota.ResourceList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a claim's requests ask for before it is allocated (semantics.md section 22.3): each request
 * of {@code spec.devices.requests} adds its devices; an {@code exactly} request counts {@code
 * count} devices ({@code ExactCount}, 1 by default) or every device of the largest pool of its
 * class's driver ({@code All}); a {@code firstAvailable} request counts, per resource, the most any
 * of its sub-requests would. Capacity-derived resources take, per device, the largest capacity any
 * device of the class's driver publishes: the device is not chosen yet, and this bounds it from
 * above.
 */
final class ClaimRequests {

  private static final String EXACT_COUNT = "ExactCount";
  private static final String ALL = "All";

  private final DeviceClassMappings mappings;
  private final DraObjects objects;

  ClaimRequests(DeviceClassMappings mappings, DraObjects objects) {
    this.mappings = mappings;
    this.objects = objects;
  }

  /**
   * @param field where the claim's spec is, for problems, e.g. {@code spec.resourceClaims[0]
   *     (ResourceClaimTemplate team/gpus): spec.spec}
   */
  DeviceCharge charge(ResourceClaimSpec spec, String field) {
    final DeviceClaim devices = spec == null ? null : spec.getDevices();
    final List<DeviceRequest> requests =
        devices == null || devices.getRequests() == null ? List.of() : devices.getRequests();
    DeviceCharge charge = DeviceCharge.NONE;
    for (int i = 0; i < requests.size(); i++) {
      charge = charge.plus(request(requests.get(i), field + ".devices.requests[" + i + "]"));
    }
    return charge;
  }

  private DeviceCharge request(DeviceRequest request, String field) {
    final ExactDeviceRequest exactly = request.getExactly();
    final List<DeviceSubRequest> firstAvailable =
        request.getFirstAvailable() == null ? List.of() : request.getFirstAvailable();
    if (exactly != null && !firstAvailable.isEmpty()) {
      return DeviceCharge.problem(
          field, "sets both exactly and firstAvailable; its devices are not charged");
    }
    if (exactly != null) {
      return exact(
          new Asked(
              exactly.getDeviceClassName(),
              exactly.getAllocationMode(),
              exactly.getCount(),
              Boolean.TRUE.equals(exactly.getAdminAccess())),
          field + ".exactly");
    }
    if (firstAvailable.isEmpty()) {
      return DeviceCharge.problem(
          field, "sets neither exactly nor firstAvailable; its devices are not charged");
    }
    // The scheduler takes the first sub-request that can be satisfied: any of them may be taken.
    DeviceCharge largest = DeviceCharge.NONE;
    for (int i = 0; i < firstAvailable.size(); i++) {
      final DeviceSubRequest sub = firstAvailable.get(i);
      largest =
          largest.max(
              exact(
                  new Asked(
                      sub.getDeviceClassName(), sub.getAllocationMode(), sub.getCount(), false),
                  field + ".firstAvailable[" + i + "]"));
    }
    return largest;
  }

  /** One request for devices of one class, as both request shapes give it. */
  private record Asked(
      String deviceClass, String allocationMode, Long count, boolean adminAccess) {}

  private DeviceCharge exact(Asked asked, String field) {
    if (asked.adminAccess()) {
      // Admin access reaches devices in use by others (monitoring); it takes none from anyone.
      return DeviceCharge.NONE;
    }
    final Optional<DeviceClassMapping> mapping = mappings.charging(nonNull(asked.deviceClass()));
    if (mapping.isEmpty()) {
      return Unmapped.problem(asked.deviceClass(), objects, field + ".deviceClassName");
    }
    final String mode =
        asked.allocationMode() == null || asked.allocationMode().isEmpty()
            ? EXACT_COUNT
            : asked.allocationMode();
    return switch (mode) {
      case EXACT_COUNT -> exactCount(mapping.get(), asked.count(), field);
      case ALL -> all(mapping.get(), field);
      default ->
          DeviceCharge.problem(
              field + ".allocationMode",
              "\"" + mode + "\" is neither ExactCount nor All; its devices are not charged");
    };
  }

  private DeviceCharge exactCount(DeviceClassMapping mapping, Long count, String field) {
    final long devices = count == null ? 1 : count;
    if (devices < 1) {
      return DeviceCharge.problem(
          field + ".count", "must be at least 1, is " + devices + "; nothing is charged");
    }
    final Map<String, Long> capacity = new HashMap<>();
    for (final CapacityRule rule : mapping.capacities()) {
      long largest = 0;
      for (final List<PublishedDevice> pool : pools(mapping)) {
        for (final PublishedDevice device : pool) {
          largest = Math.max(largest, rule.units(device.capacity(rule.capacity())));
        }
      }
      capacity.put(rule.resource(), DeviceUnits.times(devices, largest));
    }
    return DeviceCharge.of(DeviceUnits.of(mapping, devices, capacity));
  }

  private DeviceCharge all(DeviceClassMapping mapping, String field) {
    final Optional<String> driver =
        ClassDriver.of(mapping.deviceClass(), objects.deviceClass(mapping.deviceClass()));
    if (driver.isEmpty()) {
      return DeviceCharge.problem(
          field + ".allocationMode",
          "All: DeviceClass "
              + mapping.deviceClass()
              + " selects devices of several drivers; its devices are not charged until allocated");
    }
    // All takes every matching device of one pool; the largest pool bounds it from above.
    List<PublishedDevice> largest = List.of();
    for (final List<PublishedDevice> pool : objects.pools(driver.get())) {
      if (pool.size() > largest.size()) {
        largest = pool;
      }
    }
    if (largest.isEmpty()) {
      return DeviceCharge.problem(
          field + ".allocationMode",
          "All: no ResourceSlice publishes devices of driver "
              + driver.get()
              + "; nothing is charged until allocated");
    }
    final Map<String, Long> capacity = new HashMap<>();
    for (final CapacityRule rule : mapping.capacities()) {
      long sum = 0;
      for (final PublishedDevice device : largest) {
        sum = ResourceList.saturatedAdd(sum, rule.units(device.capacity(rule.capacity())));
      }
      capacity.put(rule.resource(), sum);
    }
    return DeviceCharge.of(DeviceUnits.of(mapping, largest.size(), capacity));
  }

  private static String nonNull(String text) {
    return text == null ? "" : text;
  }

  private List<List<PublishedDevice>> pools(DeviceClassMapping mapping) {
    return ClassDriver.of(mapping.deviceClass(), objects.deviceClass(mapping.deviceClass()))
        .map(objects::pools)
        .orElse(List.of());
  }
}
