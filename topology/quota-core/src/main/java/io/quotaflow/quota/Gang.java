package io.quotaflow.quota;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * The gang a pod belongs to (issue 28): pods that are useless unless at least {@code minMember} of
 * them run, as scheduler-plugins' PodGroup, Koordinator's gang annotations and Volcano's PodGroup
 * declare them. A gang is named within its namespace.
 *
 * @param name the gang's name in the pod's namespace
 * @param minMember how many members must run together; empty while not known (a PodGroup object not
 *     read yet): then every member seen counts
 * @param convention which convention named it: {@code scheduler-plugins}, {@code koordinator} or
 *     {@code volcano}
 */
public record Gang(String name, OptionalInt minMember, String convention) {

  public Gang {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(minMember, "minMember");
    Objects.requireNonNull(convention, "convention");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("a gang needs a name");
    }
    if (minMember.isPresent() && minMember.getAsInt() < 1) {
      throw new IllegalArgumentException("minMember must be at least 1, got " + minMember);
    }
  }
}
