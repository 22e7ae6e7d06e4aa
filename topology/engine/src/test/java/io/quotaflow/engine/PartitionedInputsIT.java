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
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Scenario (a) with inputs written through {@link ClusterPartitioner} over six partitions and an
 * engine that reads them without the repartition hop: the same runtimes, nothing rejected; and an
 * input topic with another partition count stops such an engine before it starts.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class PartitionedInputsIT {
  private static final List<String> CLUSTERS = List.of("east", "west", "north");

  @Test
  void runtimesEqualTheCoresFullComputationWithoutTheHop(final EmbeddedKafkaBroker broker) {
    final String servers = broker.bootstrapServers();
    try (EngineInstances instances =
        new EngineInstances(
            servers, Map.of(EngineSettings.INPUTS_PARTITIONED_BY_CLUSTER.key(), "true"))) {
      final Engine engine = instances.start(EngineInstances.stateDir(), Map.of());
      final TopicCatalogue topics = instances.topics();
      try (KafkaInputs inputs =
              new KafkaInputs(
                  servers,
                  topics,
                  Map.of(
                      ProducerConfig.PARTITIONER_CLASS_CONFIG,
                      ClusterPartitioner.class.getName()));
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
    try (EngineInstances instances =
            new EngineInstances(
                servers, Map.of(EngineSettings.INPUTS_PARTITIONED_BY_CLUSTER.key(), "true"));
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
