package io.quotaflow.engine.store;

import org.apache.kafka.common.serialization.Serializer;

/**
 * Serializers of key prefixes for {@code prefixScan}: they write the leading components exactly as
 * the key serdes of this package do, so a scan finds one cluster's (or one group's) keys and no
 * others.
 */
public final class KeyPrefixes {
  private KeyPrefixes() {}

  /** Every key of one cluster, in any store of this package. */
  public static Serializer<String> cluster() {
    return (topic, cluster) -> OrderedKeys.encode(cluster);
  }

  /** Every {@link InputId} of one cluster and kind (the id's namespace and name are ignored). */
  public static Serializer<InputId> inputsOf() {
    return (topic, id) -> OrderedKeys.encode(id.cluster(), id.kind().name());
  }

  /** Every {@link GroupPodId} of one group. */
  public static Serializer<GroupId> group() {
    return (topic, group) -> OrderedKeys.encode(group.cluster(), group.name());
  }
}
