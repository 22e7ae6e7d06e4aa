package io.quotaflow.quota;

import java.util.Objects;

/** A pod's identity within one cluster. */
public record PodRef(String namespace, String name) implements Comparable<PodRef> {

  public PodRef {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
  }

  /** By namespace, then name. */
  @Override
  public int compareTo(PodRef other) {
    final int byNamespace = namespace.compareTo(other.namespace);
    return byNamespace != 0 ? byNamespace : name.compareTo(other.name);
  }

  // Written out: the record's generated hashCode goes through method handles, and pods are hashed
  // by reference on every event and tens of thousands of times at a cold start.
  @Override
  public int hashCode() {
    return 31 * namespace.hashCode() + name.hashCode();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PodRef other
        && name.equals(other.name)
        && namespace.equals(other.namespace);
  }

  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
