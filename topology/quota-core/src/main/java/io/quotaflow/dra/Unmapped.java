package io.quotaflow.dra;

/** The problem of a device class no mapping names: reported, never guessed (section 22.1). */
final class Unmapped {

  private Unmapped() {}

  static DeviceCharge problem(String deviceClass, DraObjects objects, String field) {
    if (deviceClass == null || deviceClass.isEmpty()) {
      return DeviceCharge.problem(field, "names no device class; its devices are not charged");
    }
    final String what =
        objects.deviceClass(deviceClass).isPresent()
            ? "DeviceClass " + deviceClass + " has no quota mapping"
            : "unknown DeviceClass " + deviceClass + " (no DeviceClass object, no quota mapping)";
    return DeviceCharge.problem(field, what + "; its devices are not charged");
  }
}
