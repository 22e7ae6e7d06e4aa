package io.quotaflow.engine;

import static io.quotaflow.engine.DraInputs.GPU;
import static io.quotaflow.engine.DraInputs.GPU_CLASS;
import static io.quotaflow.engine.DraInputs.cpuAndGpus;
import static io.quotaflow.engine.DraInputs.exactly;
import static io.quotaflow.engine.DraInputs.gpuClass;
import static io.quotaflow.engine.DraInputs.template;
import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.schemas.DraKey;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.topics.TopicCatalogue;
import io.quotaflow.tree.GroupStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 29 on the in-JVM broker: the engine reads the DRA topics (provisioned and placed by cluster
 * like the other inputs) and charges a pod the GPUs it claims through a template, and stops when
 * the template is gone; the other cluster, without DRA, computes what the core computes.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class DraEngineIT {
  private static final String EAST = "east";
  private static final String WEST = "west";
  private static final String NS = "ml";

  @Test
  void podsAreChargedTheGpusTheirClaimsAskOnTheRealBroker(final EmbeddedKafkaBroker broker) {
    try (EngineInstances instances = new EngineInstances(broker.bootstrapServers(), Map.of())) {
      instances.start(EngineInstances.stateDir(), Map.of());
      final TopicCatalogue topics = instances.topics();
      try (KafkaInputs inputs = new KafkaInputs(broker.bootstrapServers(), topics);
          KafkaOutputs outputs = new KafkaOutputs(broker.bootstrapServers(), topics)) {
        for (final String cluster : new String[] {EAST, WEST}) {
          inputs
              .putNode(
                  cluster,
                  "n1",
                  NodeState.newBuilder(Inputs.node(100_000))
                      .setAllocatable(Map.of("cpu", 100_000L, GPU, 8L))
                      .build())
              .putQuota(
                  cluster,
                  "team-a",
                  quota()
                      .namespace(NS)
                      .min(cpuAndGpus(10_000, 2))
                      .max(cpuAndGpus(100_000, 8))
                      .build())
              .putPod(cluster, NS, pod("web").group("team-a").running("n1").cpu(2_000));
        }
        inputs
            .putDra(topics.deviceClasses(), new DraKey(EAST, "", GPU_CLASS), gpuClass())
            .putDra(
                topics.resourceClaimTemplates(),
                new DraKey(EAST, NS, "four-gpus"),
                template(exactly("gpus", GPU_CLASS, 4)))
            .putPod(
                EAST,
                NS,
                pod("train").group("team-a").running("n1").claimTemplate("gpu", "four-gpus"))
            .flush();

        await()
            .atMost(EngineInstances.timeout())
            .untilAsserted(
                () -> assertThat(teamA(outputs.poll(), EAST).used().get(GPU)).isEqualTo(4));
        await()
            .atMost(EngineInstances.timeout())
            .untilAsserted(() -> outputs.poll().assertTablesMatch(inputs.model(), List.of(WEST)));

        inputs
            .putDra(topics.resourceClaimTemplates(), new DraKey(EAST, NS, "four-gpus"), null)
            .flush();

        await()
            .atMost(EngineInstances.timeout())
            .untilAsserted(() -> assertThat(teamA(outputs.poll(), EAST).used().get(GPU)).isZero());
        assertThat(outputs.rejected()).isEmpty();
      }
    }
  }

  private static GroupStatus teamA(final KafkaOutputs outputs, final String cluster) {
    final GroupStatus status = outputs.table(cluster).get("team-a");
    assertThat(status).as("team-a's runtime record").isNotNull();
    return status;
  }
}
