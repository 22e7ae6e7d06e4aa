package io.quotaflow.engine.store;

import java.util.List;
import java.util.Objects;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * One input object of a cluster (a pod, a quota group, a node or an ElasticQuotaProfile): the key
 * of the {@code cluster-inputs} store. Its serde orders keys by cluster first, so one cluster's
 * inputs are one prefix scan.
 *
 * @param cluster the cluster
 * @param kind which input topic the object comes from
 * @param namespace the pod's namespace; empty for groups and nodes
 * @param name the object's name
 */
public record InputId(String cluster, InputKind kind, String namespace, String name) {

  private static final Serde<InputId> SERDE =
      Serdes.serdeFrom(
          (topic, id) ->
              id == null
                  ? null
                  : OrderedKeys.encode(id.cluster, id.kind.name(), id.namespace, id.name),
          (topic, bytes) -> bytes == null ? null : decode(bytes));

  /** Requires every part. */
  public InputId {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
  }

  /** The order-preserving serde of store keys. */
  public static Serde<InputId> serde() {
    return SERDE;
  }

  private static InputId decode(final byte[] bytes) {
    final List<String> parts = OrderedKeys.decode(bytes, 4, "Input");
    return new InputId(parts.get(0), InputKind.valueOf(parts.get(1)), parts.get(2), parts.get(3));
  }

  /** The kinds of input object. */
  public enum InputKind {
    POD,
    QUOTA,
    NODE,
    PROFILE,
    // Dynamic Resource Allocation objects (docs/semantics.md section 22): what pods' claims read.
    DEVICE_CLASS,
    RESOURCE_CLAIM,
    RESOURCE_CLAIM_TEMPLATE,
    RESOURCE_SLICE
  }
}
