package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quotaflow.engine.errors.InvalidInputException;
import io.quotaflow.serde.RecordDecodingException;
import io.quotaflow.topics.RejectedRecordHeaders;
import io.quotaflow.topics.RejectedRecordHeaders.Rejection;
import io.quotaflow.topics.TopicCatalogue;
import io.quotaflow.tree.QuotaOptions;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Scenario (a), shared by the broker tests: a few thousand events over three clusters, under
 * exactly_once_v2, end in runtime.v1 records equal to the core's full computation on the final
 * inputs; two bad records end in rejected.v1 with their origin while processing goes on; the one
 * instance's interactive queries hold every cluster's tree.
 */
final class FullComputationScenario {
  private static final List<String> CLUSTERS = List.of("east", "west", "north");

  private FullComputationScenario() {}

  static void run(final String bootstrapServers) {
    try (EngineInstances instances = new EngineInstances(bootstrapServers, Map.of())) {
      final Engine engine = instances.start(EngineInstances.stateDir(), Map.of());
      final TopicCatalogue topics = instances.topics();
      try (KafkaInputs inputs = new KafkaInputs(bootstrapServers, topics);
          KafkaOutputs outputs = new KafkaOutputs(bootstrapServers, topics)) {

        final int sent = new Workload(42, CLUSTERS).send(inputs, 1_000);
        inputs
            .raw(topics.pods().name(), bytes("garbage key"), bytes("garbage value"))
            .putPod("east", "apps", pod("negative").group("dept-0-team-0").cpu(-1))
            .flush();
        // The rejected pod never reaches the engine's state.
        inputs.model().deletePod("east", "apps", "negative");

        assertThat(sent).isGreaterThan(3_000);
        await()
            .atMost(EngineInstances.timeout())
            .untilAsserted(() -> outputs.poll().assertTablesMatch(inputs.model(), CLUSTERS));
        await()
            .atMost(EngineInstances.timeout())
            .untilAsserted(() -> assertThat(outputs.poll().rejected()).hasSize(2));
        final List<Rejection> rejections =
            outputs.rejected().stream()
                .map(record -> RejectedRecordHeaders.read(record.headers()).orElseThrow())
                .toList();
        assertThat(rejections)
            .extracting(Rejection::sourceTopic)
            .containsOnly(topics.pods().name());
        assertThat(rejections)
            .extracting(Rejection::exceptionClass)
            .containsExactlyInAnyOrder(
                RecordDecodingException.class.getName(), InvalidInputException.class.getName());
        assertThat(outputs.rejected())
            .anySatisfy(record -> assertThat(record.value()).isEqualTo(bytes("garbage value")));

        for (final String cluster : CLUSTERS) {
          assertThat(engine.queries().tree(cluster))
              .containsExactlyInAnyOrderElementsOf(
                  inputs.model().expected(cluster, QuotaOptions.DEFAULTS).values());
        }
      }
    }
  }

  private static byte[] bytes(final String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
