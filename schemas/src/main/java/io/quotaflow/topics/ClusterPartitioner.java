package io.quotaflow.topics;

import io.quotaflow.schemas.DraKey;
import io.quotaflow.schemas.NodeKey;
import io.quotaflow.schemas.PodGroupKey;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.ProfileKey;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.serde.AvroSerde;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.Partitioner;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.utils.Utils;

/**
 * Puts every record of one Kubernetes cluster on the same partition of an input topic: the
 * partition is a hash of the cluster name, whatever the object. With the inputs partitioned this
 * way (connect's {@code source.partition.by.cluster}), the engine can read them without a
 * repartition hop ({@code inputs.partitioned.by.cluster}). Keys are pod, quota, node, profile,
 * PodGroup or DRA keys, as objects or as the catalogue's key bytes.
 */
public final class ClusterPartitioner implements Partitioner {
  private static final List<AvroSerde<?>> KEYS =
      List.of(
          AvroSerde.forKeys(PodKey.class),
          AvroSerde.forKeys(QuotaKey.class),
          AvroSerde.forKeys(NodeKey.class),
          AvroSerde.forKeys(ProfileKey.class),
          AvroSerde.forKeys(PodGroupKey.class),
          AvroSerde.forKeys(DraKey.class));

  /** The partition of {@code cluster}'s records among {@code partitions}. */
  public static int partitionOf(final String cluster, final int partitions) {
    return Utils.toPositive(Utils.murmur2(cluster.getBytes(StandardCharsets.UTF_8))) % partitions;
  }

  /**
   * The cluster named by a pod, quota, node, profile, PodGroup or DRA key, given as an object or as
   * its bytes.
   *
   * @throws IllegalArgumentException for anything else
   */
  public static String clusterOf(final Object key) {
    if (key instanceof PodKey pod) {
      return pod.getCluster();
    }
    if (key instanceof QuotaKey quota) {
      return quota.getCluster();
    }
    if (key instanceof NodeKey node) {
      return node.getCluster();
    }
    if (key instanceof ProfileKey profile) {
      return profile.getCluster();
    }
    if (key instanceof PodGroupKey podGroup) {
      return podGroup.getCluster();
    }
    if (key instanceof DraKey dra) {
      return dra.getCluster();
    }
    if (key instanceof byte[] bytes) {
      // Key schemas are frozen at their first version: the header names the key's type.
      for (final AvroSerde<?> serde : KEYS) {
        if (serde.writesLike(bytes)) {
          return clusterOf(serde.deserializer().deserialize("", bytes));
        }
      }
    }
    throw new IllegalArgumentException(
        "not a pod, quota, node, profile, PodGroup or DRA key: "
            + (key == null ? "null" : key.getClass().getName()));
  }

  @Override
  public int partition(
      final String topic,
      final Object key,
      final byte[] keyBytes,
      final Object value,
      final byte[] valueBytes,
      final Cluster cluster) {
    return partitionOf(clusterOf(key), cluster.partitionCountForTopic(topic));
  }

  @Override
  public void configure(final Map<String, ?> configs) {}

  @Override
  public void close() {}
}
