package io.quotaflow.quota;

import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;

/**
 * A gang's identity: its name within its members' namespace (issue 28). Reclaim groups victims by
 * it, admission keeps a gang's hold under it.
 *
 * @param namespace the members' namespace
 * @param name the gang's name there
 */
public record GangKey(String namespace, String name) implements Comparable<GangKey> {

  private static final Comparator<GangKey> ORDER =
      Comparator.comparing(GangKey::namespace).thenComparing(GangKey::name);

  public GangKey {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
  }

  /** The gang {@code pod} belongs to, if any. */
  public static Optional<GangKey> of(QuotaPod pod) {
    return pod.gang().map(gang -> new GangKey(pod.ref().namespace(), gang.name()));
  }

  /** The key of {@code gang}, whose members live in {@code namespace}. */
  public static GangKey of(String namespace, Gang gang) {
    return new GangKey(namespace, gang.name());
  }

  /**
   * The name the gang's in-flight hold is kept under beside the pods' holds: no pod can have it, a
   * pod's name holding no slash.
   */
  public PodRef holdRef() {
    return new PodRef(namespace, "gang/" + name);
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
