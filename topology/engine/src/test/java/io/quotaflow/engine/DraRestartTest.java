package io.quotaflow.engine;

import static io.quotaflow.engine.DraInputs.GPU;
import static io.quotaflow.engine.DraInputs.GPU_CLASS;
import static io.quotaflow.engine.DraInputs.cpuAndGpus;
import static io.quotaflow.engine.DraInputs.exactly;
import static io.quotaflow.engine.DraInputs.gpuClass;
import static io.quotaflow.engine.DraInputs.gpuNames;
import static io.quotaflow.engine.DraInputs.gpuSliceOn;
import static io.quotaflow.engine.DraInputs.template;
import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.DraKey;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.internal.ClusterEventKind;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A restarted task rebuilds each cluster's DRA objects from the cluster-inputs store before its
 * pods, so a pod with claims is charged as before the restart and nothing new is emitted; the
 * objects keep charging pods that arrive after it.
 */
class DraRestartTest {
  private static final String EAST = "east";
  private static final String NS = "ml";

  @Test
  void aRestartedTaskChargesClaimsAsBeforeAndEmitsNothingNew() {
    final ProcessorHarness harness = new ProcessorHarness();
    harness
        .node(
            EAST,
            "n1",
            NodeState.newBuilder(Inputs.node(100_000))
                .setAllocatable(Map.of("cpu", 100_000L, GPU, 8L))
                .build())
        .quota(
            EAST,
            "team-a",
            quota().namespace(NS).min(cpuAndGpus(10_000, 2)).max(cpuAndGpus(100_000, 8)).build())
        .input(
            InputEvents.dra(
                ClusterEventKind.DEVICE_CLASS,
                new DraKey(EAST, "", GPU_CLASS),
                gpuClass(),
                InputEvents.Source.UNKNOWN))
        .input(
            InputEvents.dra(
                ClusterEventKind.RESOURCE_CLAIM_TEMPLATE,
                new DraKey(EAST, NS, "three-gpus"),
                template(exactly("gpus", GPU_CLASS, 3)),
                InputEvents.Source.UNKNOWN))
        .pod(
            EAST, NS, pod("train").group("team-a").running("n1").claimTemplate("gpu", "three-gpus"))
        .recompute();
    assertThat(harness.runtime())
        .filteredOn(record -> record.key().getName().equals("team-a"))
        .last()
        .satisfies(record -> assertThat(record.value().getUsed()).containsEntry(GPU, 3L));

    harness.restart().recompute();
    assertThat(harness.runtime()).isEmpty();

    harness
        .pod(EAST, NS, pod("eval").group("team-a").running("n1").claimTemplate("gpu", "three-gpus"))
        .recompute();
    assertThat(harness.runtime())
        .filteredOn(record -> record.key().getName().equals("team-a"))
        .last()
        .satisfies(record -> assertThat(record.value().getUsed()).containsEntry(GPU, 6L));
  }

  @Test
  void aRestartedTaskCountsTheSlicesInTheTotalAsBefore() {
    final ProcessorHarness harness = new ProcessorHarness();
    harness
        // A DRA-only node: its 8 GPUs are only in its slice (semantics.md section 22.8).
        .node(EAST, "n1", Inputs.node(100_000))
        .quota(
            EAST,
            "team-a",
            quota().namespace(NS).min(cpuAndGpus(10_000, 4)).max(cpuAndGpus(100_000, 8)).build())
        .input(
            InputEvents.dra(
                ClusterEventKind.RESOURCE_SLICE,
                new DraKey(EAST, "", "n1-gpus"),
                gpuSliceOn("n1", "n1", gpuNames(8)),
                InputEvents.Source.UNKNOWN))
        .input(
            InputEvents.dra(
                ClusterEventKind.DEVICE_CLASS,
                new DraKey(EAST, "", GPU_CLASS),
                gpuClass(),
                InputEvents.Source.UNKNOWN))
        .input(
            InputEvents.dra(
                ClusterEventKind.RESOURCE_CLAIM_TEMPLATE,
                new DraKey(EAST, NS, "six-gpus"),
                template(exactly("gpus", GPU_CLASS, 6)),
                InputEvents.Source.UNKNOWN))
        // team-a asks 6: its min of 4 and 2 borrowed from the slice's 8.
        .pod(EAST, NS, pod("train").group("team-a").claimTemplate("gpu", "six-gpus"))
        .recompute();
    assertThat(harness.runtime())
        .filteredOn(record -> record.key().getName().equals("team-a"))
        .last()
        .satisfies(record -> assertThat(record.value().getRuntime()).containsEntry(GPU, 6L));

    // Rebuilt from the store with the slice counted: no runtime changes, nothing emitted.
    harness.restart().recompute();
    assertThat(harness.runtime()).isEmpty();

    harness
        .pod(EAST, NS, pod("train").group("team-a").cpu(1_000).claimTemplate("gpu", "six-gpus"))
        .recompute();
    assertThat(harness.runtime())
        .filteredOn(record -> record.key().getName().equals("team-a"))
        .last()
        .satisfies(record -> assertThat(record.value().getRuntime()).containsEntry(GPU, 6L));
  }
}
