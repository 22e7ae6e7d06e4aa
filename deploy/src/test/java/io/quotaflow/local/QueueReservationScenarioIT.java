package io.quotaflow.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quotaflow.engine.query.RuntimeQueries;
import io.quotaflow.quota.PodRef;
import io.quotaflow.reservation.ReservationCalculator;
import io.quotaflow.reservation.ReservationStatus;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.QuotaCalculator;
import io.quotaflow.tree.TreeSnapshot;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code quotaflow local --scenario queue-reservation} in this JVM: team-a's reservation locks two
 * nodes, the scheduler filter turns team-b's pod away from them, the Guaranteed policy evicts
 * team-b's pod already on one, and removing the annotation frees the nodes. After every step the
 * engine's runtimes and locks equal what {@code simulate}'s calculators compute from the demo
 * cluster's objects at that moment.
 */
@Tag("system")
class QueueReservationScenarioIT {

  @RegisterExtension
  final LocalRunExtension local = LocalRunExtension.scenario("queue-reservation");

  @Test
  void aReservationLocksNodesKeepsAnotherGroupOffThemEvictsItsPodAndIsReleased() {
    final LocalRun run = local.run();
    assertThat(run.readyAfter()).isLessThan(Duration.ofSeconds(30));
    final List<ScenarioPlayer.StepOutcome> outcomes =
        local.play(
            number -> {
              final ClusterInputs inputs = PlayedScenarios.inputs(run);
              final TreeSnapshot snapshot =
                  QuotaCalculator.compute(inputs, run.engineConfig().quotaOptions());
              assertThat(PlayedScenarios.engineRuntimes(run))
                  .as("engine runtimes after step %d", number)
                  .isEqualTo(PlayedScenarios.runtimes(snapshot.groups()));
              assertThat(locks(engineReservations(run)))
                  .as("engine locks after step %d", number)
                  .isEqualTo(
                      locks(
                          ReservationCalculator.compute(
                              inputs, snapshot, run.engineConfig().quotaOptions())));
            });

    final KubernetesClient client = run.demo().orElseThrow().client();
    final Pod placed = client.pods().inNamespace("team-b").withName("b-3").get();
    assertThat(placed.getSpec().getNodeName()).isEqualTo("node-1");

    assertThat(local.checkedSteps()).containsExactly(1, 2, 3, 4, 5);
    assertThat(outcomes.get(1).reservations().get("team-a").nodes())
        .containsExactly("node-2", "node-3");
    assertThat(outcomes.get(2).refused()).containsOnlyKeys("node-2", "node-3");
    assertThat(outcomes.get(2).refused().get("node-2"))
        .contains("locked by the reservation of quota group team-a");
    assertThat(outcomes.get(2).placed()).contains("node-1");
    assertThat(outcomes.get(3).evicted()).containsExactly(new PodRef("team-b", "b-1"));
    assertThat(outcomes.get(4).refused()).isEmpty();
    assertThat(local.printed())
        .contains("Step 5/5")
        .contains("the scheduler filter refuses node-2")
        .contains("reservation Guaranteed: reserves 2 nodes (node-2, node-3)");
  }

  private static Map<String, ReservationStatus> engineReservations(final LocalRun run) {
    return RuntimeQueries.of(run.engine().streams()).reservations(DemoCluster.NAME);
  }

  /** Each group's locked nodes and whether they cover it: what does not depend on history. */
  private static Map<String, String> locks(final Map<String, ReservationStatus> reservations) {
    final Map<String, String> locks = new TreeMap<>();
    reservations.forEach(
        (group, status) -> locks.put(group, status.nodes() + " satisfied=" + status.satisfied()));
    return locks;
  }
}
