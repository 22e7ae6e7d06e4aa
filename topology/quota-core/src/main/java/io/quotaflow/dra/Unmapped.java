package io.quotaflow.dra;

/**
 * The charge of a device class no mapping names and no fallback covers: never guessed, and never
 * free either (section 22.9). A class whose DeviceClass object is not read yet is {@link
 * Unresolved.Kind#NOT_KNOWN}; one that is known is {@link Unresolved.Kind#UNMAPPED}.
 */
final class Unmapped {

  private Unmapped() {}

  static DeviceCharge problem(String deviceClass, DraObjects objects, String field) {
    if (deviceClass == null || deviceClass.isEmpty()) {
      return DeviceCharge.unresolved(
          Unresolved.Kind.UNMAPPED,
          "a request without a device class",
          field,
          "names no device class; its devices are not charged");
    }
    if (objects.deviceClass(deviceClass).isPresent()) {
      return DeviceCharge.unresolved(
          Unresolved.Kind.UNMAPPED,
          "DeviceClass " + deviceClass,
          field,
          "DeviceClass " + deviceClass + " has no quota mapping; its devices are not charged");
    }
    return DeviceCharge.unresolved(
        Unresolved.Kind.NOT_KNOWN,
        "DeviceClass " + deviceClass,
        field,
        "unknown DeviceClass "
            + deviceClass
            + " (no DeviceClass object, no quota mapping); its devices are not charged");
  }
}
