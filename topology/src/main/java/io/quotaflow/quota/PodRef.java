package io.quotaflow.quota;

import java.util.Comparator;
import java.util.Objects;

/** A pod's identity within one cluster. */
public record PodRef(String namespace, String name) implements Comparable<PodRef> {

  private static final Comparator<PodRef> ORDER =
      Comparator.comparing(PodRef::namespace).thenComparing(PodRef::name);

  public PodRef {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
  }

  @Override
  public int compareTo(PodRef other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
