package io.quotaflow.admission.machine;

import io.quotaflow.dra.Unresolved;
import io.quotaflow.rules.Denial;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The denials of a new pod whose claimed devices cannot be counted (docs/semantics.md section 22.9,
 * issue 39): unknown devices are not free. A claim, template or class the engine has not read yet
 * is {@code devices-unknown}, which retrying resolves (the connectors deliver a new object within
 * seconds, and the pod's controller or the scheduler asks again); a class no mapping names is
 * {@code device-class-unmapped}, which needs a cluster admin. The unmapped ones come first: waiting
 * does not help them.
 */
final class UnresolvedDevices {

  private UnresolvedDevices() {}

  /** One denial per device that cannot be counted, charged to {@code group}; empty when none. */
  static List<Denial> denials(String group, List<Unresolved> unresolved) {
    final List<Unresolved> sorted = new ArrayList<>(unresolved);
    sorted.sort(Comparator.comparing(u -> u.kind() == Unresolved.Kind.UNMAPPED ? 0 : 1));
    return sorted.stream().map(u -> denial(group, u)).toList();
  }

  private static Denial denial(String group, Unresolved unresolved) {
    return switch (unresolved.kind()) {
      case NOT_KNOWN ->
          new Denial(
              Denial.Check.DEVICES_UNKNOWN,
              group,
              "",
              0,
              0,
              0,
              0,
              unresolved.object()
                  + " ("
                  + unresolved.field()
                  + ") is not known to quotaflow yet, so its devices cannot be counted; retry in a"
                  + " few seconds (controllers and the scheduler retry on their own)");
      case UNMAPPED ->
          new Denial(
              Denial.Check.DEVICE_CLASS_UNMAPPED,
              group,
              "",
              0,
              0,
              0,
              0,
              unresolved.object()
                  + " ("
                  + unresolved.field()
                  + ") has no quota mapping, so its devices cannot be counted; a cluster admin"
                  + " maps it in quota.device.classes, or sets a fallback in"
                  + " quota.device.unmapped.class");
    };
  }
}
