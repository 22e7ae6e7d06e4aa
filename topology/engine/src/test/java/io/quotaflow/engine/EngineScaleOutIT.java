package io.quotaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.tree.GroupStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Scale-out on one broker: 40 clusters, inputs partitioned by cluster over eight partitions, read
 * by one, two and four instances of an application (each its own state directory, as separate
 * processes would have). Every cluster is held by exactly one instance, every instance holds some,
 * and every cluster's runtimes are those one instance computes (and the core's full computation).
 */
@Tag("slow")
@ExtendWith(EmbeddedKafkaExtension.class)
class EngineScaleOutIT {
  private static final List<String> CLUSTERS =
      IntStream.range(0, 40).mapToObj(i -> String.format("cluster-%02d", i)).toList();
  private static final Map<String, String> EIGHT_PARTITIONS =
      Map.of(EngineSettings.TOPIC_PARTITIONS.key(), "8");

  @Test
  void twoAndFourInstancesComputeEveryClusterAsOneInstanceDoes(final EmbeddedKafkaBroker broker) {
    final Map<String, Map<String, GroupStatus>> one = runtimes(broker, 1);

    assertThat(runtimes(broker, 2)).isEqualTo(one);
    assertThat(runtimes(broker, 4)).isEqualTo(one);
  }

  /**
   * Each cluster's runtime table once {@code count} instances of a fresh application have read the
   * same workload, after checking how the clusters were split between them.
   */
  private static Map<String, Map<String, GroupStatus>> runtimes(
      final EmbeddedKafkaBroker broker, final int count) {
    final String servers = broker.bootstrapServers();
    try (EngineInstances instances = new EngineInstances(servers, EIGHT_PARTITIONS)) {
      final List<Engine> engines = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        engines.add(
            instances.start(
                EngineInstances.stateDir(),
                Map.of(StreamsConfig.APPLICATION_SERVER_CONFIG, "localhost:" + (7300 + i))));
      }
      await()
          .atMost(EngineInstances.timeout())
          .until(() -> engines.stream().allMatch(EngineInstances::running));
      try (KafkaInputs inputs = new KafkaInputs(servers, instances.topics());
          KafkaOutputs outputs = new KafkaOutputs(servers, instances.topics())) {
        new Workload(7, CLUSTERS).send(inputs, 40);
        inputs.flush();

        await()
            .atMost(EngineInstances.timeout())
            .untilAsserted(() -> outputs.poll().assertTablesMatch(inputs.model(), CLUSTERS));
        await().atMost(EngineInstances.timeout()).untilAsserted(() -> assertSplit(engines, count));
        final Map<String, Map<String, GroupStatus>> tables = new TreeMap<>();
        CLUSTERS.forEach(cluster -> tables.put(cluster, outputs.table(cluster)));
        return tables;
      }
    }
  }

  /** Every cluster's tree on exactly one of the instances, and every instance holding some. */
  private static void assertSplit(final List<Engine> engines, final int count) {
    assertThat(engines).allMatch(EngineInstances::running);
    final int[] held = new int[count];
    for (final String cluster : CLUSTERS) {
      int holders = 0;
      for (int i = 0; i < count; i++) {
        if (!engines.get(i).queries().tree(cluster).isEmpty()) {
          holders++;
          held[i]++;
        }
      }
      assertThat(holders).as("instances holding %s", cluster).isEqualTo(1);
    }
    assertThat(held).as("clusters per instance").doesNotContain(0);
  }
}
