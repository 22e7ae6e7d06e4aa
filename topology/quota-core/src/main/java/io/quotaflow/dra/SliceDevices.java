package io.quotaflow.dra;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import io.quotaflow.quota.Quantities;
import io.quotaflow.quota.Quantities.InvalidQuantityException;
import io.quotaflow.quota.SpecProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The devices one ResourceSlice publishes, read from the fabric8 object.
 *
 * @param driver {@code spec.driver}
 * @param pool {@code spec.pool.name}
 * @param devices {@code spec.devices}, in order
 * @param nodeName {@code spec.nodeName}: the node of a node-local slice; empty for a slice bound to
 *     no single node ({@code allNodes}, {@code nodeSelector}, {@code perDeviceNodeSelection})
 * @param generation {@code spec.pool.generation}; only a pool's newest generation counts toward the
 *     cluster total (semantics.md section 22.8)
 */
public record SliceDevices(
    String driver, String pool, List<PublishedDevice> devices, String nodeName, long generation) {

  public SliceDevices {
    Objects.requireNonNull(driver, "driver");
    Objects.requireNonNull(pool, "pool");
    Objects.requireNonNull(nodeName, "nodeName");
    devices = List.copyOf(devices);
  }

  /** A slice bound to no single node, of generation 0. */
  public SliceDevices(String driver, String pool, List<PublishedDevice> devices) {
    this(driver, pool, devices, "", 0);
  }

  /** Whether the slice's devices are on one node ({@link #nodeName}). */
  public boolean nodeLocal() {
    return !nodeName.isEmpty();
  }

  /**
   * Reads a slice. A capacity that is not a quantity is a problem on its field and is left out of
   * the device (it then derives nothing); a device without a name is a problem and left out.
   */
  public static SliceDevices read(ResourceSlice slice, List<SpecProblem> problems) {
    final ResourceSliceSpec spec =
        slice.getSpec() == null ? new ResourceSliceSpec() : slice.getSpec();
    final String driver = spec.getDriver() == null ? "" : spec.getDriver();
    final String pool =
        spec.getPool() == null || spec.getPool().getName() == null ? "" : spec.getPool().getName();
    if (driver.isEmpty()) {
      problems.add(new SpecProblem("spec.driver", "a ResourceSlice needs a driver"));
    }
    if (pool.isEmpty()) {
      problems.add(new SpecProblem("spec.pool.name", "a ResourceSlice needs a pool name"));
    }
    final List<PublishedDevice> devices = new ArrayList<>();
    final List<Device> published = spec.getDevices() == null ? List.of() : spec.getDevices();
    for (int i = 0; i < published.size(); i++) {
      final Device device = published.get(i);
      final String field = "spec.devices[" + i + "]";
      if (device.getName() == null || device.getName().isEmpty()) {
        problems.add(new SpecProblem(field + ".name", "a device needs a name"));
        continue;
      }
      devices.add(
          new PublishedDevice(
              new DeviceId(driver, pool, device.getName()),
              capacity(device.getCapacity(), field + ".capacity", problems)));
    }
    final String nodeName = spec.getNodeName() == null ? "" : spec.getNodeName();
    final long generation =
        spec.getPool() == null || spec.getPool().getGeneration() == null
            ? 0
            : spec.getPool().getGeneration();
    return new SliceDevices(driver, pool, devices, nodeName, generation);
  }

  private static Map<String, Long> capacity(
      Map<String, DeviceCapacity> capacities, String field, List<SpecProblem> problems) {
    final Map<String, Long> values = new TreeMap<>();
    if (capacities == null) {
      return values;
    }
    capacities.forEach(
        (name, capacity) -> {
          final String where = field + "[" + name + "].value";
          if (capacity == null || capacity.getValue() == null) {
            problems.add(new SpecProblem(where, "a capacity needs a value"));
            return;
          }
          try {
            values.put(name, Quantities.parseUnits(capacity.getValue().toString()));
          } catch (InvalidQuantityException e) {
            problems.add(new SpecProblem(where, e.getMessage()));
          }
        });
    return values;
  }
}
