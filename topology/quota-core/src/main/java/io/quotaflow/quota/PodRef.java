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

  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
