package io.quotaflow.engine.store;

import java.util.List;
import java.util.Objects;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * One input object of a cluster (a pod, a quota group, a node, an ElasticQuotaProfile or a
 * PodGroup): the key of the {@code cluster-inputs} store. Its serde orders keys by cluster first,
 * so one cluster's inputs are one prefix scan.
 *
 * @param cluster the cluster
 * @param kind which input topic the object comes from
 * @param namespace the pod's or PodGroup's namespace; empty for groups, nodes and profiles
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
    /**
     * A PodGroup of scheduler-plugins or Volcano: the id's name is {@link #podGroupName}, its
     * convention and name.
     */
    PODGROUP,
    // Dynamic Resource Allocation objects (docs/semantics.md section 22): what pods' claims read.
    DEVICE_CLASS,
    RESOURCE_CLAIM,
    RESOURCE_CLAIM_TEMPLATE,
    RESOURCE_SLICE
  }

  /**
   * The id of a PodGroup: one of {@code cluster}'s PodGroups of {@code convention} (PodGroup API),
   * in {@code namespace}, named {@code name}. Two APIs may each have a PodGroup of one name, so the
   * convention is part of the id's name ({@link #podGroupName}).
   */
  public static InputId podGroup(
      final String cluster, final String convention, final String namespace, final String name) {
    return new InputId(cluster, InputKind.PODGROUP, namespace, podGroupName(convention, name));
  }

  /**
   * The name part of a PodGroup's id: {@code convention/name}, as in {@code volcano/train}.
   * Unambiguous: a convention is a fixed word and a Kubernetes object name holds no slash.
   */
  public static String podGroupName(final String convention, final String name) {
    return convention + "/" + name;
  }
}
