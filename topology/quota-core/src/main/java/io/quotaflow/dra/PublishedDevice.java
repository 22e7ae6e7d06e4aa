package io.quotaflow.dra;

import java.util.Map;
import java.util.Objects;

/**
 * One device a ResourceSlice publishes, with its capacities in canonical integer units (bytes for a
 * memory-like quantity: every capacity is read as whole units, a fraction rounded up).
 */
public record PublishedDevice(DeviceId id, Map<String, Long> capacity) {

  public PublishedDevice {
    Objects.requireNonNull(id, "id");
    capacity = Map.copyOf(capacity);
  }

  /** The capacity of that name, 0 when the device publishes none. */
  public long capacity(String name) {
    return capacity.getOrDefault(name, 0L);
  }
}
