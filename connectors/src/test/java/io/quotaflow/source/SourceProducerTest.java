package io.quotaflow.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.topics.ClusterPartitioner;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

/** The source's producer places records as the engine's topology expects. */
class SourceProducerTest {
  private static final Map<String, Object> KAFKA =
      Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "k:9092");

  @Test
  void byDefaultEveryRecordOfAClusterGoesToTheClusterPartitionersPartition() {
    assertThat(SourceSettings.defaults().partitionByCluster()).isTrue();
    assertThat(KubeSource.producerConfig(KAFKA, true))
        .containsEntry(ProducerConfig.PARTITIONER_CLASS_CONFIG, ClusterPartitioner.class.getName())
        .containsEntry(ProducerConfig.ACKS_CONFIG, "all");
  }

  @Test
  void placedByKeyTheProducerKeepsItsOwnPartitioner() {
    assertThat(KubeSource.producerConfig(KAFKA, false))
        .doesNotContainKey(ProducerConfig.PARTITIONER_CLASS_CONFIG);
  }
}
