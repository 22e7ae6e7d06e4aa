package io.quotaflow.dra;

import java.util.List;
import java.util.Objects;

/**
 * What one device of a DeviceClass is charged as: {@code perDevice} of the quota resource {@code
 * resource}, plus one amount per capacity rule, read from the device's capacity in its
 * ResourceSlice.
 *
 * @param deviceClass the DeviceClass name, e.g. {@code gpu.nvidia.com}
 * @param resource the quota resource a device counts as, e.g. {@code nvidia.com/gpu}
 * @param perDevice how much of {@code resource} one device is (at least 1)
 * @param capacities the resources derived from the device's capacity, at most one per resource
 */
public record DeviceClassMapping(
    String deviceClass, String resource, long perDevice, List<CapacityRule> capacities) {

  public DeviceClassMapping {
    Objects.requireNonNull(deviceClass, "deviceClass");
    Objects.requireNonNull(resource, "resource");
    capacities = List.copyOf(capacities);
    if (deviceClass.isBlank() || resource.isBlank()) {
      throw new IllegalArgumentException("a device class mapping needs a class and a resource");
    }
    if (perDevice < 1) {
      throw new IllegalArgumentException(
          "a device of " + deviceClass + " must count as at least 1 " + resource);
    }
    if (capacities.stream().map(CapacityRule::resource).distinct().count() < capacities.size()) {
      throw new IllegalArgumentException(
          "the capacity rules of " + deviceClass + " derive the same resource twice");
    }
  }

  /** One device of {@code deviceClass} counts as one {@code resource}, nothing derived. */
  public static DeviceClassMapping ofCount(String deviceClass, String resource) {
    return new DeviceClassMapping(deviceClass, resource, 1, List.of());
  }
}
