package io.quotaflow.dra;

import java.util.Objects;

/**
 * A device as an allocation names it: its driver, pool and name (the three fields of {@code
 * status.allocation.devices.results[]}).
 */
public record DeviceId(String driver, String pool, String device) {

  public DeviceId {
    Objects.requireNonNull(driver, "driver");
    Objects.requireNonNull(pool, "pool");
    Objects.requireNonNull(device, "device");
  }

  @Override
  public String toString() {
    return driver + "/" + pool + "/" + device;
  }
}
