package io.quotaflow.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quotaflow.dra.ClaimedDevices;
import io.quotaflow.dra.DraObjects;
import io.quotaflow.dra.SliceDevices;
import io.quotaflow.kube.PodAdapter;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.QuotaCalculator;
import io.quotaflow.tree.TreeSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code quotaflow local --scenario dra-gpus} in this JVM (issue 29): every job asks its GPUs
 * through a ResourceClaimTemplate; team-a is charged them, borrows, is reclaimed (a-3 evicted), and
 * the webhook denies a pod whose claim would take team-a past its GPU max, then one that no longer
 * fits its runtime. After every step each group's runtime equals simulate's calculator on the demo
 * cluster's objects at that moment, each pod charged its claims by the core's counting.
 */
@Tag("system")
class DraGpusScenarioIT {

  @RegisterExtension final LocalRunExtension local = LocalRunExtension.scenario("dra-gpus");

  @Test
  void gpusClaimedThroughTemplatesAreChargedBorrowedAndReclaimed() {
    final LocalRun run = local.run();
    final List<ScenarioPlayer.StepOutcome> outcomes =
        local.play(
            number ->
                assertThat(PlayedScenarios.engineRuntimes(run))
                    .as("engine runtimes after step %d", number)
                    .isEqualTo(calculatorRuntimes(run)));
    assertThat(PlayedScenarios.client(run).pods().inNamespace("team-a").withName("a-big").get())
        .as("a pod the webhook denies is never created")
        .isNull();
    assertThat(
            PlayedScenarios.inputs(run).nodes().stream()
                .map(node -> node.allocatable().contains("nvidia.com/gpu")))
        .as("the demo node is DRA-only: no GPU in its allocatable")
        .containsOnly(false);

    assertThat(local.checkedSteps()).containsExactly(1, 2, 3, 4, 5, 6);
    assertThat(outcomes.get(0).runtime())
        .containsEntry("team-a", Map.of("nvidia.com/gpu", "6", "cpu", "3"));
    assertThat(outcomes.get(1).admission()).contains(Scenario.AdmissionAnswer.DENIED);
    assertThat(outcomes.get(1).admissionMessage().orElseThrow())
        .contains("team-a", "nvidia.com/gpu");
    assertThat(outcomes.get(3).evicted()).containsExactly(new PodRef("team-a", "a-3"));
    assertThat(outcomes.get(5).admission()).contains(Scenario.AdmissionAnswer.DENIED);
  }

  /**
   * Every group's runtime as simulate's calculator computes it from the cluster's objects now, each
   * pod with the devices its claims ask as the core counts them (not as the pipeline wrote them),
   * the nodes with the devices their ResourceSlices publish.
   */
  private static Map<String, Map<String, Long>> calculatorRuntimes(final LocalRun run) {
    final KubernetesClient client = PlayedScenarios.client(run);
    final List<SliceDevices> slices = new ArrayList<>();
    for (final ResourceSlice slice : client.resources(ResourceSlice.class).list().getItems()) {
      slices.add(SliceDevices.read(slice, new ArrayList<>()));
    }
    final DraObjects objects =
        DraObjects.of(
            client.resources(DeviceClass.class).list().getItems(),
            client.resources(ResourceClaim.class).inAnyNamespace().list().getItems(),
            client.resources(ResourceClaimTemplate.class).inAnyNamespace().list().getItems(),
            slices);
    final ClaimedDevices claimed = new ClaimedDevices(run.engineConfig().deviceClasses());
    final List<QuotaPod> pods = new ArrayList<>();
    for (final Pod pod : client.pods().inAnyNamespace().list().getItems()) {
      pods.add(claimed.apply(pod, PodAdapter.toQuotaPod(pod), objects));
    }
    final ClusterInputs listed = PlayedScenarios.inputs(run);
    final TreeSnapshot snapshot =
        QuotaCalculator.compute(
            // The node lists no GPU: the total's GPUs are its slice's (semantics 22.8).
            new ClusterInputs(listed.groups(), pods, claimed.supply(objects).nodes(listed.nodes())),
            run.engineConfig().quotaOptions());
    return PlayedScenarios.runtimes(snapshot.groups());
  }
}
