package io.quotaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.engine.query.RuntimeQueries;
import io.quotaflow.tree.QuotaOptions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.ThreadMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two instances of one application in one JVM, each with its own state directory, share the work by
 * partition and give the same result as one instance: the core's full computation. Each cluster's
 * tree is queryable on the instance that owns it, and only there.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class EngineTwoInstancesIT {
  private static final List<String> CLUSTERS = List.of("east", "west", "north", "south");

  @Test
  void twoInstancesGiveTheResultOfOne(final EmbeddedKafkaBroker broker) {
    try (EngineInstances instances = new EngineInstances(broker.bootstrapServers(), Map.of())) {
      final Engine one =
          instances.start(
              EngineInstances.stateDir(),
              Map.of(StreamsConfig.APPLICATION_SERVER_CONFIG, "localhost:7101"));
      final Engine two =
          instances.start(
              EngineInstances.stateDir(),
              Map.of(StreamsConfig.APPLICATION_SERVER_CONFIG, "localhost:7102"));
      await()
          .atMost(EngineInstances.timeout())
          .until(
              () ->
                  EngineInstances.running(one)
                      && EngineInstances.running(two)
                      && activeTasks(one) > 0
                      && activeTasks(two) > 0);

      try (KafkaInputs inputs = new KafkaInputs(broker.bootstrapServers(), instances.topics());
          KafkaOutputs outputs = new KafkaOutputs(broker.bootstrapServers(), instances.topics())) {
        new Workload(11, CLUSTERS).send(inputs, 400);

        await()
            .atMost(EngineInstances.timeout())
            .untilAsserted(() -> outputs.poll().assertTablesMatch(inputs.model(), CLUSTERS));
        assertThat(activeTasks(one) + activeTasks(two)).isEqualTo(6);

        for (final String cluster : CLUSTERS) {
          final KeyQueryMetadata owner = RuntimeQueries.owner(one.streams(), cluster);
          final Engine holder = owner.activeHost().port() == 7101 ? one : two;
          final Engine other = holder == one ? two : one;
          assertThat(holder.queries().tree(cluster))
              .as("tree of %s on its owner", cluster)
              .containsExactlyInAnyOrderElementsOf(
                  inputs.model().expected(cluster, QuotaOptions.DEFAULTS).values());
          assertThat(other.queries().tree(cluster)).as("tree of %s elsewhere", cluster).isEmpty();
        }
      }
    }
  }

  private static int activeTasks(final Engine engine) {
    return engine.streams().metadataForLocalThreads().stream()
        .map(ThreadMetadata::activeTasks)
        .mapToInt(Set::size)
        .sum();
  }
}
