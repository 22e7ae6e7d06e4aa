package io.quotaflow.dra;

import java.util.Objects;

/**
 * A quota resource derived from a capacity a device publishes in its ResourceSlice, e.g. the {@code
 * memory} of a GPU as {@code quotaflow.io/gpu-memory} in GiB.
 *
 * @param capacity the capacity's name in the slice ({@code spec.devices[].capacity}), e.g. {@code
 *     memory}
 * @param resource the quota resource it is charged as
 * @param unit how much of the capacity makes one unit of the resource (1 when the units agree); a
 *     device's capacity is charged as {@code ceil(capacity / unit)}, so that a part of a unit is
 *     never free
 */
public record CapacityRule(String capacity, String resource, long unit) {

  public CapacityRule {
    Objects.requireNonNull(capacity, "capacity");
    Objects.requireNonNull(resource, "resource");
    if (capacity.isBlank() || resource.isBlank()) {
      throw new IllegalArgumentException("a capacity rule needs a capacity and a resource");
    }
    if (unit < 1) {
      throw new IllegalArgumentException("the unit of " + capacity + " must be at least 1");
    }
  }

  /** The amount of {@link #resource} for {@code value} of the capacity, rounded up. */
  public long units(long value) {
    if (value <= 0) {
      return 0;
    }
    return value / unit + (value % unit == 0 ? 0 : 1);
  }
}
