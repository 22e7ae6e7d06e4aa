package io.quotaflow.engine.store;

import java.util.List;
import java.util.Objects;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * A quota group of one cluster: the key of the {@code runtime} and {@code over-used-since} stores.
 * Its serde orders keys by cluster, then group name.
 */
public record GroupId(String cluster, String name) implements Comparable<GroupId> {

  private static final Serde<GroupId> SERDE =
      Serdes.serdeFrom(
          (topic, id) -> id == null ? null : OrderedKeys.encode(id.cluster, id.name),
          (topic, bytes) -> bytes == null ? null : decode(bytes));

  /** Requires both parts. */
  public GroupId {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(name, "name");
  }

  /** The order-preserving serde of store keys. */
  public static Serde<GroupId> serde() {
    return SERDE;
  }

  private static GroupId decode(final byte[] bytes) {
    final List<String> parts = OrderedKeys.decode(bytes, 2, "Group");
    return new GroupId(parts.get(0), parts.get(1));
  }

  @Override
  public int compareTo(final GroupId other) {
    final int byCluster = cluster.compareTo(other.cluster);
    return byCluster != 0 ? byCluster : name.compareTo(other.name);
  }

  @Override
  public String toString() {
    return cluster + "/" + name;
  }
}
