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
 * @param unresolved the devices that cannot be counted (a claim, template or class not known, an
 *     unmapped class without fallback): each is also among {@code problems}
 */
public record DeviceCharge(
    ResourceList devices, List<SpecProblem> problems, List<Unresolved> unresolved) {

  public static final DeviceCharge NONE = new DeviceCharge(ResourceList.empty(), List.of());

  public DeviceCharge {
    Objects.requireNonNull(devices, "devices");
    problems = List.copyOf(problems);
    unresolved = List.copyOf(unresolved);
  }

  /** A charge whose devices are all counted, problems or not. */
  public DeviceCharge(ResourceList devices, List<SpecProblem> problems) {
    this(devices, problems, List.of());
  }

  /** Whether every device claimed could be counted. */
  public boolean resolved() {
    return unresolved.isEmpty();
  }

  public DeviceCharge plus(DeviceCharge other) {
    return new DeviceCharge(
        devices.plus(other.devices),
        concat(problems, other.problems),
        concat(unresolved, other.unresolved));
  }

  /** Per resource, the larger of the two amounts; the problems of both. */
  public DeviceCharge max(DeviceCharge other) {
    ResourceList larger = devices;
    for (final String resource : other.devices.names()) {
      if (!devices.contains(resource) || other.devices.get(resource) > devices.get(resource)) {
        larger = larger.with(resource, other.devices.get(resource));
      }
    }
    return new DeviceCharge(
        larger, concat(problems, other.problems), concat(unresolved, other.unresolved));
  }

  static DeviceCharge problem(String field, String reason) {
    return new DeviceCharge(ResourceList.empty(), List.of(new SpecProblem(field, reason)));
  }

  /** Nothing charged, because {@code object} cannot be counted; a problem too. */
  static DeviceCharge unresolved(Unresolved.Kind kind, String object, String field, String reason) {
    return new DeviceCharge(
        ResourceList.empty(),
        List.of(new SpecProblem(field, reason)),
        List.of(new Unresolved(kind, object, field)));
  }

  static DeviceCharge of(ResourceList devices) {
    return new DeviceCharge(devices, List.of());
  }

  private static <T> List<T> concat(List<T> first, List<T> second) {
    if (second.isEmpty()) {
      return first;
    }
    final List<T> all = new ArrayList<>(first);
    all.addAll(second);
    return all;
  }
}
