package io.quotaflow.eviction;

import io.quotaflow.quota.QuotaPod;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;

/**
 * A gang's identity: its name within its members' namespace (issue 28).
 *
 * @param namespace the members' namespace
 * @param name the gang's name
 */
record GangKey(String namespace, String name) implements Comparable<GangKey> {

  private static final Comparator<GangKey> ORDER =
      Comparator.comparing(GangKey::namespace).thenComparing(GangKey::name);

  GangKey {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
  }

  /** The gang {@code pod} belongs to, if any. */
  static Optional<GangKey> of(QuotaPod pod) {
    return pod.gang().map(gang -> new GangKey(pod.ref().namespace(), gang.name()));
  }

  @Override
  public int compareTo(GangKey other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
