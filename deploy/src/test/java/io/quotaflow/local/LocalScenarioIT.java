package io.quotaflow.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.quotaflow.fixtures.CommandRun;
import io.quotaflow.quota.PodRef;
import io.quotaflow.tree.QuotaCalculator;
import io.quotaflow.tree.TreeSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code quotaflow local} in this JVM, with its own embedded broker, playing the gpu-borrowing
 * scenario: after every step each group's runtime as the engine computed it equals what {@code
 * simulate}'s calculator computes from the demo cluster's objects at that moment; the eviction and
 * the webhook's denial happen; and everything stops within a few seconds.
 */
@Tag("smoke")
class LocalScenarioIT {

  @RegisterExtension final LocalRunExtension local = LocalRunExtension.scenario("gpu-borrowing");

  private static String[] concat(String[]... parts) {
    return java.util.Arrays.stream(parts).flatMap(java.util.Arrays::stream).toArray(String[]::new);
  }

  @Test
  void gpuBorrowingScenarioMatchesTheCalculatorAtEveryStepEvictsAndDenies() {
    final LocalRun run = local.run();
    assertThat(run.readyAfter()).isLessThan(Duration.ofSeconds(30));
    final List<ScenarioPlayer.StepOutcome> outcomes =
        local.play(
            number ->
                assertThat(PlayedScenarios.engineRuntimes(run))
                    .as("engine runtimes after step %d", number)
                    .isEqualTo(calculatorRuntimes(run)));

    final KubernetesClient client = run.demo().orElseThrow().client();
    assertThat(client.pods().inNamespace("team-a").withName("a-4").get())
        .as("a denied pod is never created")
        .isNull();
    assertThat(client.pods().inNamespace("team-a").withName("a-1").get()).isNotNull();
    assertThat(client.pods().inNamespace("team-a").withName("a-2").get()).isNotNull();

    // Issue 30: the period's report shows team-a's borrowed GPU-hours and its eviction.
    final CommandRun report =
        CommandRun.of("report", "--server", run.adminUrl().orElseThrow(), "--from", "-1h");
    assertThat(report.exitCode()).as(report.err()).isZero();
    assertThat(report.out())
        .containsPattern(
            "team-a +nvidia.com/gpu +nvidia.com/gpu-hours +\\d+\\.\\d{3} +\\d+\\.\\d{3} +0\\.0*[1-9]\\d* ")
        .containsPattern("team-a +nvidia.com/gpu .*reclaimed-after-delay 1");

    // The same report read offline from Kafka (the history's changelog), for a period that
    // ended after the last step: the same figures to the unit-millisecond, with the eviction
    // and the last step's denial (written to denials.v1 by the webhook, counted by the engine).
    final Instant end = Instant.ofEpochSecond((Instant.now().getEpochSecond() / 5 + 1) * 5);
    final String[] period = {"--from", end.minusSeconds(3600).toString(), "--to", end.toString()};
    final java.util.concurrent.atomic.AtomicReference<CommandRun> served =
        new java.util.concurrent.atomic.AtomicReference<>();
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              assertThat(Instant.now()).isAfter(end);
              served.set(
                  CommandRun.of(
                      concat(
                          new String[] {"report", "--server", run.adminUrl().orElseThrow()},
                          period,
                          new String[] {"--output", "json"})));
              assertThat(served.get().out())
                  .contains("reclaimed-after-delay")
                  .containsPattern("\"denials\" : \\{\\s*\"exceeds-");
            });
    final CommandRun offline =
        CommandRun.of(
            concat(
                new String[] {
                  "report",
                  "--bootstrap-servers",
                  run.bootstrapServers(),
                  "--application-id",
                  LocalRun.APPLICATION_ID
                },
                period,
                new String[] {"--output", "json"}));
    assertThat(offline.exitCode()).as(offline.err()).isZero();
    assertThat(offline.out()).isEqualTo(served.get().out());
    assertThat(local.stop())
        .as("everything stops within a few seconds")
        .isLessThan(Duration.ofSeconds(10));

    assertThat(local.checkedSteps()).containsExactly(1, 2, 3, 4, 5);
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
    assertThat(local.printed())
        .contains("Step 5/5")
        .contains("the webhook denies team-a/a-4")
        .contains("=== cluster demo");
  }

  /** Every group's runtime as simulate's calculator computes it from the cluster's objects now. */
  private static Map<String, Map<String, Long>> calculatorRuntimes(final LocalRun run) {
    final TreeSnapshot snapshot =
        QuotaCalculator.compute(PlayedScenarios.inputs(run), run.engineConfig().quotaOptions());
    return PlayedScenarios.runtimes(snapshot.groups());
  }
}
