package io.quotaflow.dra;

import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a pod's claims add to its request, and what could not be read or mapped on the way.
 *
 * @param devices the quota resources of the claimed devices, canonical units
 * @param problems fields of the pod (or of the claims it names) that charge nothing, each with why
 */
public record DeviceCharge(ResourceList devices, List<SpecProblem> problems) {

  public static final DeviceCharge NONE = new DeviceCharge(ResourceList.empty(), List.of());

  public DeviceCharge {
    Objects.requireNonNull(devices, "devices");
    problems = List.copyOf(problems);
  }

  public DeviceCharge plus(DeviceCharge other) {
    final List<SpecProblem> all = new ArrayList<>(problems);
    all.addAll(other.problems);
    return new DeviceCharge(devices.plus(other.devices), all);
  }

  /** Per resource, the larger of the two amounts; the problems of both. */
  public DeviceCharge max(DeviceCharge other) {
    ResourceList larger = devices;
    for (final String resource : other.devices.names()) {
      if (!devices.contains(resource) || other.devices.get(resource) > devices.get(resource)) {
        larger = larger.with(resource, other.devices.get(resource));
      }
    }
    final List<SpecProblem> all = new ArrayList<>(problems);
    all.addAll(other.problems);
    return new DeviceCharge(larger, all);
  }

  static DeviceCharge problem(String field, String reason) {
    return new DeviceCharge(ResourceList.empty(), List.of(new SpecProblem(field, reason)));
  }

  static DeviceCharge of(ResourceList devices) {
    return new DeviceCharge(devices, List.of());
  }
}
