package io.quotaflow.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.schemas.DraKey;
import io.quotaflow.schemas.NodeKey;
import io.quotaflow.schemas.PodGroupKey;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.ProfileKey;
import io.quotaflow.schemas.QuotaKey;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.junit.jupiter.api.Test;

/** Every record of a cluster lands on one partition, whatever the object and the key's form. */
class ClusterPartitionerTest {
  private final TopicCatalogue topics = TopicCatalogue.withDefaultPrefix();

  @Test
  void podQuotaAndNodeKeysOfOneClusterShareAPartitionAsObjectsAndAsBytes() {
    final PodKey pod = new PodKey("east", "apps", "web-0");
    final QuotaKey quota = new QuotaKey("east", "team-a");
    final NodeKey node = new NodeKey("east", "n1");

    final List<Integer> partitions =
        List.of(
            partition(topics.pods().name(), pod),
            partition(topics.pods().name(), topics.pods().keySerializer().serialize("", pod)),
            partition(topics.quotas().name(), topics.quotas().keySerializer().serialize("", quota)),
            partition(topics.nodes().name(), topics.nodes().keySerializer().serialize("", node)));

    assertThat(partitions).containsOnly(ClusterPartitioner.partitionOf("east", 6));
  }

  @Test
  void profileKeysShareTheirClustersPartitionAsObjectsAndAsBytes() {
    final ProfileKey profile = new ProfileKey("east", "gpu-pool");

    final List<Integer> partitions =
        List.of(
            partition(topics.profiles().name(), profile),
            partition(
                topics.profiles().name(),
                topics.profiles().keySerializer().serialize("", profile)));

    assertThat(partitions).containsOnly(ClusterPartitioner.partitionOf("east", 6));
  }

  @Test
  void podGroupKeysShareTheirClustersPartitionAsObjectsAndAsBytes() {
    final PodGroupKey podGroup = new PodGroupKey("east", "volcano", "apps", "train");

    final List<Integer> partitions =
        List.of(
            partition(topics.podGroups().name(), podGroup),
            partition(
                topics.podGroups().name(),
                topics.podGroups().keySerializer().serialize("", podGroup)));

    assertThat(partitions).containsOnly(ClusterPartitioner.partitionOf("east", 6));
  }

  @Test
  void draKeysShareTheirClustersPartitionAsObjectsAndAsBytes() {
    final DraKey claim = new DraKey("east", "ml", "train-gpu");
    final DraKey slice = new DraKey("east", "", "node-1-gpus");

    final List<Integer> partitions =
        List.of(
            partition(topics.resourceClaims().name(), claim),
            partition(
                topics.resourceClaims().name(),
                topics.resourceClaims().keySerializer().serialize("", claim)),
            partition(
                topics.resourceSlices().name(),
                topics.resourceSlices().keySerializer().serialize("", slice)));

    assertThat(partitions).containsOnly(ClusterPartitioner.partitionOf("east", 6));
  }

  @Test
  void clustersSpreadOverThePartitions() {
    final Set<Integer> used = new HashSet<>();
    for (int c = 0; c < 100; c++) {
      used.add(ClusterPartitioner.partitionOf("cluster-" + c, 6));
    }

    assertThat(used).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5);
  }

  @Test
  void anythingButAQuotaflowKeyIsRefused() {
    assertThatThrownBy(() -> ClusterPartitioner.clusterOf(new byte[] {1, 2, 3}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a pod, quota, node, profile, PodGroup or DRA key");
    assertThatThrownBy(() -> ClusterPartitioner.clusterOf("east"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** The partition the partitioner picks for {@code key} on a topic of six partitions. */
  private int partition(final String topic, final Object key) {
    return new ClusterPartitioner().partition(topic, key, null, null, null, cluster(6));
  }

  private Cluster cluster(final int partitions) {
    final Node broker = new Node(1, "localhost", 9092);
    final List<PartitionInfo> infos = new ArrayList<>();
    for (final String topic :
        List.of(
            topics.pods().name(),
            topics.quotas().name(),
            topics.nodes().name(),
            topics.profiles().name(),
            topics.podGroups().name(),
            topics.resourceClaims().name(),
            topics.resourceSlices().name())) {
      for (int p = 0; p < partitions; p++) {
        infos.add(new PartitionInfo(topic, p, broker, new Node[] {broker}, new Node[] {broker}));
      }
    }
    return new Cluster("test", List.of(broker), infos, Set.of(), Set.of());
  }
}
