package io.quotaflow.engine.store;

import io.quotaflow.quota.PodRef;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * A pod of one cluster: the key of the {@code eviction-ledger} store. Its serde orders keys by
 * cluster, namespace, then name.
 */
public record PodId(String cluster, String namespace, String name) {

  private static final Serde<PodId> SERDE =
      Serdes.serdeFrom(
          (topic, id) -> id == null ? null : OrderedKeys.encode(id.cluster, id.namespace, id.name),
          (topic, bytes) -> bytes == null ? null : decode(bytes));

  /** Requires every part. */
  public PodId {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
  }

  /** The pod {@code ref} of {@code cluster}. */
  public static PodId of(final String cluster, final PodRef ref) {
    return new PodId(cluster, ref.namespace(), ref.name());
  }

  /** The order-preserving serde of store keys. */
  public static Serde<PodId> serde() {
    return SERDE;
  }

  /** Namespace and name. */
  public PodRef ref() {
    return new PodRef(namespace, name);
  }

  private static PodId decode(final byte[] bytes) {
    final List<String> parts = OrderedKeys.decode(bytes, 3, "Pod");
    return new PodId(parts.get(0), parts.get(1), parts.get(2));
  }

  @Override
  public String toString() {
    return cluster + "/" + namespace + "/" + name;
  }
}
