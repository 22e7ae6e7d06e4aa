package io.quotaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.topics.ClusterPartitioner;
import io.quotaflow.topics.TopicCatalogue;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The two ways inputs may be placed. Scenario (a) with inputs placed by key, as a producer other
 * than quotaflow's connectors may write them, and an engine set to {@code
 * inputs.partitioned.by.cluster=false}, which re-keys them by cluster through its repartition
 * topic: the same runtimes, nothing rejected. (The default, inputs written through {@link
 * ClusterPartitioner} and read where they are, is every other broker test's.) And an input topic
 * with another partition count than {@code topic.partitions} stops an engine with the default
 * before it starts.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class PartitionedInputsIT {
  private static final List<String> CLUSTERS = List.of("east", "west", "north");

  @Test
  void inputsPlacedByKeyAreRepartitionedByClusterWhenTheEngineIsToldSo(
      final EmbeddedKafkaBroker broker) {
    final String servers = broker.bootstrapServers();
    try (EngineInstances instances =
        new EngineInstances(
            servers, Map.of(EngineSettings.INPUTS_PARTITIONED_BY_CLUSTER.key(), "false"))) {
      final Engine engine = instances.start(EngineInstances.stateDir(), Map.of());
      final TopicCatalogue topics = instances.topics();
      try (KafkaInputs inputs = KafkaInputs.placedByKey(servers, topics);
          KafkaOutputs outputs = new KafkaOutputs(servers, topics)) {

        assertThat(new Workload(42, CLUSTERS).send(inputs, 1_000)).isGreaterThan(3_000);

        await()
            .atMost(EngineInstances.timeout())
            .untilAsserted(() -> outputs.poll().assertTablesMatch(inputs.model(), CLUSTERS));
        assertThat(outputs.poll().rejected()).isEmpty();
        assertThat(engine.queries().tree("east")).isNotEmpty();
      }
    }
  }

  @Test
  void anInputTopicWithAnotherPartitionCountStopsTheEngineBeforeItStarts(
      final EmbeddedKafkaBroker broker) throws Exception {
    final String servers = broker.bootstrapServers();
    try (EngineInstances instances = new EngineInstances(servers, Map.of());
        Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers))) {
      final String pods = instances.topics().pods().name();
      admin.createTopics(List.of(new NewTopic(pods, 2, (short) 1))).all().get();
      final Engine engine =
          new Engine(
              instances.config(EngineInstances.stateDir(), Map.of()), new SimpleMeterRegistry());

      assertThatThrownBy(engine::provisionTopics)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("inputs.partitioned.by.cluster")
          .hasMessageContaining(pods);
      engine.close();
    }
  }
}
