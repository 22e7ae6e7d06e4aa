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

import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.ResourceSliceState;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Devices published in ResourceSlices count toward the cluster total (docs/semantics.md section
 * 22.8): on a cluster whose GPUs only a DRA driver publishes, the root has them to share, and they
 * leave with their slice; a GPU a device plugin also lists is counted once.
 */
class DraClusterTotalTest {
  private static final String EAST = "east";
  private static final String NS = "ml";

  private EngineDriver engine;

  @BeforeEach
  void start() {
    engine = new EngineDriver();
    engine
        .putNode(EAST, "n1", Inputs.node(100_000))
        .putQuota(
            EAST,
            "team-a",
            quota().namespace(NS).min(cpuAndGpus(10_000, 4)).max(cpuAndGpus(100_000, 8)).build())
        .putDeviceClass(EAST, GPU_CLASS, gpuClass())
        // team-a asks 6 GPUs through a claim: its min of 4 and 2 borrowed, if the total has them.
        .putClaimTemplate(EAST, NS, "six-gpus", template(exactly("gpus", GPU_CLASS, 6)))
        .putPod(EAST, NS, pod("train").group("team-a").cpu(1_000).claimTemplate("gpu", "six-gpus"));
  }

  @AfterEach
  void stop() {
    engine.close();
  }

  @Test
  void aDraOnlyClustersSliceGivesTheRootItsGpusAndTheTeamItsRuntime() {
    engine.recompute();
    assertThat(gpus(engine.group(EAST, "team-a").request())).isEqualTo(6);
    assertThat(rootGpus()).isZero();
    assertThat(gpus(engine.group(EAST, "team-a").runtime())).isZero();

    engine.putSlice(EAST, "n1-gpus", gpuSliceOn("n1", "n1", gpuNames(8))).recompute();

    assertThat(rootGpus()).isEqualTo(8);
    assertThat(gpus(engine.group(EAST, "team-a").runtime())).isEqualTo(6);
  }

  @Test
  void deletingTheSliceTakesItsGpusAway() {
    engine.putSlice(EAST, "n1-gpus", gpuSliceOn("n1", "n1", gpuNames(8))).recompute();
    assertThat(gpus(engine.group(EAST, "team-a").runtime())).isEqualTo(6);

    engine.putSlice(EAST, "n1-gpus", null).recompute();

    assertThat(rootGpus()).isZero();
    assertThat(gpus(engine.group(EAST, "team-a").runtime())).isZero();
  }

  @Test
  void aNodeListingItsGpusAndASliceOfTheSameGpusCountsThemOnce() {
    engine
        .putNode(EAST, "n1", gpuNode(8))
        .putSlice(EAST, "n1-gpus", gpuSliceOn("n1", "n1", gpuNames(8)))
        .recompute();

    assertThat(rootGpus()).isEqualTo(8);
  }

  @Test
  void theSliceFollowsItsNodeInAndOut() {
    engine.putSlice(EAST, "n2-gpus", gpuSliceOn("n2", "n2", gpuNames(8))).recompute();
    // A slice of a node not known counts nothing until the node is.
    assertThat(rootGpus()).isZero();

    engine.putNode(EAST, "n2", Inputs.node(50_000)).recompute();
    assertThat(rootGpus()).isEqualTo(8);

    engine.deleteNode(EAST, "n2").recompute();
    assertThat(rootGpus()).isZero();
  }

  @Test
  void aSliceBoundToNoNodeCountsOnceAndOnlyItsPoolsNewestGeneration() {
    final ResourceSliceState older =
        ResourceSliceState.newBuilder(gpuSliceOn("", "fabric", gpuNames(8)))
            .setGeneration(1L)
            .build();
    final ResourceSliceState newer =
        ResourceSliceState.newBuilder(gpuSliceOn("", "fabric", gpuNames(6)))
            .setGeneration(2L)
            .build();
    engine.putSlice(EAST, "fabric-1", older).putSlice(EAST, "fabric-2", newer).recompute();

    assertThat(rootGpus()).isEqualTo(6);

    engine.putSlice(EAST, "fabric-2", null).recompute();
    assertThat(rootGpus()).isEqualTo(8);
  }

  private long rootGpus() {
    return gpus(engine.group(EAST, SpecialGroups.ROOT).runtime());
  }

  private static long gpus(final ResourceList list) {
    return list.get(GPU);
  }

  private static NodeState gpuNode(final long gpus) {
    return NodeState.newBuilder(Inputs.node(100_000))
        .setAllocatable(Map.of("cpu", 100_000L, GPU, gpus))
        .build();
  }
}
