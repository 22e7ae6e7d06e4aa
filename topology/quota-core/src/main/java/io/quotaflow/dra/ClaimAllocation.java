package io.quotaflow.dra;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.quotaflow.quota.Quantities;
import io.quotaflow.quota.Quantities.InvalidQuantityException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What an allocated claim holds (semantics.md section 22.4): each result of {@code
 * status.allocation.devices.results} is one device of the class its request (or sub-request) asked
 * for, charged as that class's mapping says, its derived resources from the capacity the device
 * publishes in its ResourceSlice, or from the capacity the result consumed when it says so.
 */
final class ClaimAllocation {

  private final DeviceClassMappings mappings;
  private final DraObjects objects;

  ClaimAllocation(DeviceClassMappings mappings, DraObjects objects) {
    this.mappings = mappings;
    this.objects = objects;
  }

  /** Whether the claim has an allocation to charge from. */
  static boolean isAllocated(ResourceClaim claim) {
    return claim.getStatus() != null
        && claim.getStatus().getAllocation() != null
        && claim.getStatus().getAllocation().getDevices() != null
        && claim.getStatus().getAllocation().getDevices().getResults() != null;
  }

  /**
   * @param field where the claim is, for problems
   */
  DeviceCharge charge(ResourceClaim claim, String field) {
    final Map<String, String> classByRequest = classByRequest(claim);
    final List<DeviceRequestAllocationResult> results =
        claim.getStatus().getAllocation().getDevices().getResults();
    DeviceCharge charge = DeviceCharge.NONE;
    for (int i = 0; i < results.size(); i++) {
      charge =
          charge.plus(
              result(
                  results.get(i),
                  classByRequest,
                  field + ": status.allocation.devices.results[" + i + "]"));
    }
    return charge;
  }

  private DeviceCharge result(
      DeviceRequestAllocationResult result, Map<String, String> classByRequest, String field) {
    if (Boolean.TRUE.equals(result.getAdminAccess())) {
      return DeviceCharge.NONE; // as before allocation: admin access takes no device
    }
    final String request = result.getRequest() == null ? "" : result.getRequest();
    final String deviceClass = classByRequest.get(request);
    if (deviceClass == null) {
      return DeviceCharge.problem(
          field + ".request",
          "request \"" + request + "\" is not in the claim's spec; the device is not charged");
    }
    final Optional<DeviceClassMapping> mapping = mappings.charging(deviceClass);
    if (mapping.isEmpty()) {
      return Unmapped.problem(deviceClass, objects, field);
    }
    final DeviceId id =
        new DeviceId(text(result.getDriver()), text(result.getPool()), text(result.getDevice()));
    final Optional<PublishedDevice> device = objects.device(id);
    final Map<String, Long> capacity = new HashMap<>();
    DeviceCharge problems = DeviceCharge.NONE;
    for (final CapacityRule rule : mapping.get().capacities()) {
      final Quantity consumed =
          result.getConsumedCapacity() == null
              ? null
              : result.getConsumedCapacity().get(rule.capacity());
      if (consumed != null) {
        // A device shared by several claims: each is charged what it consumed of it.
        try {
          capacity.put(rule.resource(), rule.units(Quantities.parseUnits(consumed.toString())));
        } catch (InvalidQuantityException e) {
          problems =
              problems.plus(
                  DeviceCharge.problem(
                      field + ".consumedCapacity[" + rule.capacity() + "]", e.getMessage()));
        }
      } else if (device.isPresent()) {
        capacity.put(rule.resource(), rule.units(device.get().capacity(rule.capacity())));
      } else {
        problems =
            problems.plus(
                DeviceCharge.problem(
                    field,
                    "device "
                        + id
                        + " is in no ResourceSlice; its "
                        + rule.capacity()
                        + " is not charged as "
                        + rule.resource()));
      }
    }
    return DeviceCharge.of(DeviceUnits.of(mapping.get(), 1, capacity)).plus(problems);
  }

  /** Request names as results give them: {@code request}, or {@code request/sub-request}. */
  private static Map<String, String> classByRequest(ResourceClaim claim) {
    final Map<String, String> classes = new HashMap<>();
    final List<DeviceRequest> requests =
        claim.getSpec() == null
                || claim.getSpec().getDevices() == null
                || claim.getSpec().getDevices().getRequests() == null
            ? List.of()
            : claim.getSpec().getDevices().getRequests();
    for (final DeviceRequest request : requests) {
      if (request.getExactly() != null && request.getExactly().getDeviceClassName() != null) {
        classes.put(text(request.getName()), request.getExactly().getDeviceClassName());
      }
      if (request.getFirstAvailable() != null) {
        for (final DeviceSubRequest sub : request.getFirstAvailable()) {
          if (sub.getDeviceClassName() != null) {
            classes.put(
                text(request.getName()) + "/" + text(sub.getName()), sub.getDeviceClassName());
          }
        }
      }
    }
    return classes;
  }

  private static String text(String value) {
    return value == null ? "" : value;
  }
}
