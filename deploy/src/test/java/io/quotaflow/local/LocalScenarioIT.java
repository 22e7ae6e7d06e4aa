package io.quotaflow.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.quotaflow.cluster.ElasticQuotas;
import io.quotaflow.engine.query.RuntimeQueries;
import io.quotaflow.kube.ElasticQuotaAdapter;
import io.quotaflow.kube.NodeAdapter;
import io.quotaflow.kube.PodAdapter;
import io.quotaflow.quota.PodRef;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaCalculator;
import io.quotaflow.tree.TreeSnapshot;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code quotaflow local} in this JVM, with its own embedded broker, playing the gpu-borrowing
 * scenario: after every step each group's runtime as the engine computed it equals what {@code
 * simulate}'s calculator computes from the demo cluster's objects at that moment; the eviction and
 * the webhook's denial happen; and everything stops within a few seconds.
 */
class LocalScenarioIT {

  private static final Path LOCAL = LocalFiles.localDir();
  private static final Duration CONVERGED = Duration.ofSeconds(15);

  @Test
  void gpuBorrowingScenarioMatchesTheCalculatorAtEveryStepEvictsAndDenies() {
    final Scenario scenario =
        new ScenarioCatalogue(LOCAL.resolve("scenarios")).named("gpu-borrowing");
    final StringWriter printed = new StringWriter();
    final PrintWriter out = new PrintWriter(printed, true);
    final List<Integer> checkedSteps = new ArrayList<>();
    final LocalRun run =
        LocalRun.start(
            LocalSettings.demo(LOCAL.resolve("examples"), 0).withScenario(scenario), out);
    final List<ScenarioPlayer.StepOutcome> outcomes;
    try {
      assertThat(run.readyAfter()).isLessThan(Duration.ofSeconds(30));
      outcomes =
          new ScenarioPlayer(
                  run,
                  out,
                  (number, step, outcome) -> {
                    await()
                        .atMost(CONVERGED)
                        .untilAsserted(
                            () ->
                                assertThat(engineRuntimes(run))
                                    .as("engine runtimes after step %d", number)
                                    .isEqualTo(calculatorRuntimes(run)));
                    checkedSteps.add(number);
                  })
              .play(scenario);

      final KubernetesClient client = run.demo().orElseThrow().client();
      assertThat(client.pods().inNamespace("team-a").withName("a-4").get())
          .as("a denied pod is never created")
          .isNull();
      assertThat(client.pods().inNamespace("team-a").withName("a-1").get()).isNotNull();
      assertThat(client.pods().inNamespace("team-a").withName("a-2").get()).isNotNull();
    } finally {
      final long stopping = System.nanoTime();
      run.close();
      assertThat(Duration.ofNanos(System.nanoTime() - stopping))
          .as("everything stops within a few seconds")
          .isLessThan(Duration.ofSeconds(10));
    }

    assertThat(checkedSteps).containsExactly(1, 2, 3, 4, 5);
    assertThat(outcomes.get(0).runtime())
        .isEqualTo(
            Map.of(
                "team-a", Map.of("nvidia.com/gpu", "6", "cpu", "3"),
                "team-b", Map.of("nvidia.com/gpu", "0", "cpu", "0")));
    assertThat(outcomes.get(1).runtime())
        .isEqualTo(
            Map.of(
                "team-a", Map.of("nvidia.com/gpu", "4"), "team-b", Map.of("nvidia.com/gpu", "4")));
    assertThat(outcomes.get(1).evicted()).isEmpty();
    assertThat(outcomes.get(2).evicted()).containsExactly(new PodRef("team-a", "a-3"));
    assertThat(outcomes.get(4).admission()).contains(Scenario.AdmissionAnswer.DENIED);
    assertThat(outcomes.get(4).admissionMessage().orElseThrow())
        .contains("team-a")
        .contains("nvidia.com/gpu");
    assertThat(printed.toString())
        .contains("Step 5/5")
        .contains("the webhook denies team-a/a-4")
        .contains("=== cluster demo");
  }

  /** Every group's runtime as the engine holds it. */
  private static Map<String, Map<String, Long>> engineRuntimes(final LocalRun run) {
    return RuntimeQueries.of(run.engine().streams()).tree(DemoCluster.NAME).stream()
        .collect(Collectors.toMap(GroupStatus::name, group -> amounts(group)));
  }

  /** Every group's runtime as simulate's calculator computes it from the cluster's objects now. */
  private static Map<String, Map<String, Long>> calculatorRuntimes(final LocalRun run) {
    final KubernetesClient client = run.demo().orElseThrow().client();
    final ClusterInputs inputs =
        new ClusterInputs(
            client
                .genericKubernetesResources(ElasticQuotas.CONTEXT)
                .inAnyNamespace()
                .list()
                .getItems()
                .stream()
                .map(ElasticQuotaAdapter::toQuotaGroup)
                .toList(),
            client.pods().inAnyNamespace().list().getItems().stream()
                .map(PodAdapter::toQuotaPod)
                .toList(),
            client.nodes().list().getItems().stream().map(NodeAdapter::toQuotaNode).toList());
    final TreeSnapshot snapshot =
        QuotaCalculator.compute(inputs, run.engineConfig().quotaOptions());
    return snapshot.groups().stream()
        .collect(Collectors.toMap(GroupStatus::name, group -> amounts(group)));
  }

  private static Map<String, Long> amounts(final GroupStatus group) {
    return group.runtime().names().stream()
        .collect(Collectors.toMap(name -> name, name -> group.runtime().get(name)));
  }
}
