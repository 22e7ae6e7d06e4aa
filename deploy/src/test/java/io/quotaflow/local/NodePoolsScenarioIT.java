package io.quotaflow.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.quotaflow.profile.MultiTreeCalculator;
import io.quotaflow.profile.MultiTreeCalculator.TreeResult;
import io.quotaflow.tree.GroupStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code quotaflow local --scenario node-pools} in this JVM: the node-pools example's two quota
 * trees (ElasticQuotaProfiles gpu-pool and cpu-pool) through a real engine. After every step each
 * group's runtime as the engine computed it, from the profiles, quotas, pods and node labels the
 * connectors sent, equals what {@code simulate}'s multi-tree calculator computes from the demo
 * cluster's objects at that moment; and the scheduler filter keeps each tree's pods on its pool.
 */
@Tag("system")
class NodePoolsScenarioIT {

  @RegisterExtension final LocalRunExtension local = LocalRunExtension.scenario("node-pools");

  @Test
  void eachPoolsTreeMatchesTheMultiTreeCalculatorAtEveryStepAndPodsStayInTheirPool() {
    final LocalRun run = local.run();
    assertThat(run.readyAfter()).isLessThan(Duration.ofSeconds(30));
    final List<ScenarioPlayer.StepOutcome> outcomes =
        local.play(
            number ->
                assertThat(PlayedScenarios.engineRuntimes(run))
                    .as("engine runtimes after step %d", number)
                    .isEqualTo(calculatorRuntimes(run)));

    final Pod web = PlayedScenarios.client(run).pods().inNamespace("web").withName("w-2").get();
    assertThat(web.getSpec().getNodeName()).isEqualTo("cpu-node-1");
    final Pod nlp = PlayedScenarios.client(run).pods().inNamespace("nlp").withName("n-2").get();
    assertThat(nlp.getSpec().getNodeName()).isEqualTo("gpu-node-1");
    await()
        .atMost(Duration.ofSeconds(15))
        .untilAsserted(
            () ->
                assertThat(local.printed())
                    .as("local's table names each tree")
                    .contains("=== Tree default: the groups outside every profile's tree")
                    .contains(
                        "=== Tree gpu-pool: ElasticQuotaProfile gpu-pool, root gpu-root,"
                            + " resourceRatio 0.9, 2 Ready nodes")
                    .contains("=== Tree cpu-pool: ElasticQuotaProfile cpu-pool, root cpu-root"));

    assertThat(local.checkedSteps()).containsExactly(1, 2, 3);
    assertThat(outcomes.get(0).runtime())
        .containsEntry("vision", Map.of("nvidia.com/gpu", "6"))
        .containsEntry("batch", Map.of("cpu", "16"));
    assertThat(outcomes.get(1).refused()).containsOnlyKeys("gpu-node-1", "gpu-node-2");
    assertThat(outcomes.get(1).refused().get("gpu-node-1"))
        .contains("cpu-pool")
        .contains("cpu-root");
    assertThat(outcomes.get(1).placed()).contains("cpu-node-1");
    assertThat(outcomes.get(2).refused()).containsOnlyKeys("cpu-node-1", "cpu-node-2");
    assertThat(outcomes.get(2).placed()).contains("gpu-node-1");
    assertThat(outcomes.get(2).runtime())
        .containsEntry("vision", Map.of("nvidia.com/gpu", "5"))
        .containsEntry("nlp", Map.of("nvidia.com/gpu", "2"));
    assertThat(local.printed())
        .contains("Step 3/3")
        .contains("the scheduler filter refuses gpu-node-1");
  }

  /**
   * Every group's runtime as simulate's multi-tree calculator computes it from the cluster's
   * profiles and objects now: the groups each tree reports, all trees together.
   */
  private static Map<String, Map<String, Long>> calculatorRuntimes(final LocalRun run) {
    final List<GroupStatus> groups = new ArrayList<>();
    for (final TreeResult tree :
        MultiTreeCalculator.compute(
            PlayedScenarios.inputs(run),
            PlayedScenarios.profiles(run),
            run.engineConfig().quotaOptions())) {
      groups.addAll(tree.snapshot().groups());
    }
    return PlayedScenarios.runtimes(groups);
  }
}
