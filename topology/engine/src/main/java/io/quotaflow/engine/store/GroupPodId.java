package io.quotaflow.engine.store;

import io.quotaflow.quota.PodRef;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * A pod as charged to a group: the key of the {@code pod-assignments} store. Its serde orders keys
 * by cluster, group, namespace, then name, so a group's pods are one prefix scan.
 */
public record GroupPodId(String cluster, String group, String namespace, String name) {

  private static final Serde<GroupPodId> SERDE =
      Serdes.serdeFrom(
          (topic, id) ->
              id == null ? null : OrderedKeys.encode(id.cluster, id.group, id.namespace, id.name),
          (topic, bytes) -> bytes == null ? null : decode(bytes));

  /** Requires every part. */
  public GroupPodId {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
  }

  /** The pod {@code ref} of {@code cluster} charged to {@code group}. */
  public static GroupPodId of(final String cluster, final String group, final PodRef ref) {
    return new GroupPodId(cluster, group, ref.namespace(), ref.name());
  }

  /** The order-preserving serde of store keys. */
  public static Serde<GroupPodId> serde() {
    return SERDE;
  }

  /** Namespace and name. */
  public PodRef ref() {
    return new PodRef(namespace, name);
  }

  private static GroupPodId decode(final byte[] bytes) {
    final List<String> parts = OrderedKeys.decode(bytes, 4, "Group pod");
    return new GroupPodId(parts.get(0), parts.get(1), parts.get(2), parts.get(3));
  }
}
