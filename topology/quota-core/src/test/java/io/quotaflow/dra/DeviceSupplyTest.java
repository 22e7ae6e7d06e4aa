package io.quotaflow.dra;

import static io.quotaflow.dra.Dra.GPU;
import static io.quotaflow.dra.Dra.GPU_CLASS;
import static io.quotaflow.dra.Dra.GPU_MEMORY;
import static io.quotaflow.dra.Dra.deviceClass;
import static io.quotaflow.dra.Dra.gpu;
import static io.quotaflow.dra.Dra.objects;
import static io.quotaflow.dra.Dra.sliceForAllNodes;
import static io.quotaflow.dra.Dra.sliceOn;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.quotaflow.profile.NodeSelector;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.profile.QuotaTrees;
import io.quotaflow.profile.ResourceRatio;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.QuotaCalculator;
import io.quotaflow.tree.QuotaOptions;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Devices published in ResourceSlices count toward the cluster total (semantics.md 22.8). */
class DeviceSupplyTest {

  private static final DeviceClassMappings GPUS = DeviceClassMappings.defaults();
  private static final ResourceList CPU_ONLY = ResourceList.of("cpu", 64_000);

  @Test
  void aDraOnlyNodeCountsTheGpusItsSlicePublishes() {
    final List<QuotaNode> nodes =
        supply(GPUS, List.of(sliceOn("node-1", GPU_CLASS, "node-1", 1, gpus(8))))
            .nodes(List.of(QuotaNode.healthy("node-1", CPU_ONLY)));
    assertThat(total(nodes)).isEqualTo(ResourceList.of("cpu", 64_000, GPU, 8));
  }

  @Test
  void aNodeListingTheSameGpusInItsAllocatableCountsTheLargerNeverTheSum() {
    final DeviceSupply supply =
        supply(
            GPUS,
            List.of(
                sliceOn("plugin-and-dra", GPU_CLASS, "plugin-and-dra", 1, gpus(8)),
                sliceOn("more-in-slice", GPU_CLASS, "more-in-slice", 1, gpus(8)),
                sliceOn("more-in-plugin", GPU_CLASS, "more-in-plugin", 1, gpus(2))));
    final List<QuotaNode> nodes =
        supply.nodes(
            List.of(
                QuotaNode.healthy("plugin-and-dra", ResourceList.of(GPU, 8)),
                QuotaNode.healthy("more-in-slice", ResourceList.of(GPU, 4)),
                QuotaNode.healthy("more-in-plugin", ResourceList.of(GPU, 8))));
    assertThat(nodes).extracting(node -> node.allocatable().get(GPU)).containsExactly(8L, 8L, 8L);
    assertThat(total(nodes)).isEqualTo(ResourceList.of(GPU, 24));
  }

  @Test
  void capacityRulesDeriveFromEachDeviceRoundedUp() {
    final DeviceClassMappings withMemory =
        DeviceClassMappings.parse(
            "gpu.nvidia.com -> nvidia.com/gpu x 1 [memory / 1Gi -> quotaflow.io/gpu-memory]");
    final DeviceSupply supply =
        supply(
            withMemory,
            List.of(
                sliceOn(
                    "node-1",
                    GPU_CLASS,
                    "node-1",
                    1,
                    gpu("gpu-0", "80Gi"),
                    gpu("gpu-1", "80Gi"),
                    gpu("gpu-2", "9984Mi"))));
    assertThat(supply.byNode().get("node-1"))
        .isEqualTo(ResourceList.of(GPU, 3, GPU_MEMORY, 80 + 80 + 10));
  }

  @Test
  void onlyThePoolsNewestGenerationCounts() {
    final DeviceSupply supply =
        supply(
            GPUS,
            List.of(
                sliceOn("node-1", GPU_CLASS, "node-1", 1, gpus(8)),
                sliceOn("node-1", GPU_CLASS, "node-1", 2, gpus(4))));
    assertThat(supply.byNode().get("node-1")).isEqualTo(ResourceList.of(GPU, 4));
  }

  @Test
  void aDeviceListedInTwoSlicesOfOnePoolCountsOnce() {
    final ResourceSlice first = sliceOn("node-1", GPU_CLASS, "pool", 1, gpus(4));
    final ResourceSlice again =
        new io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder(first)
            .editMetadata()
            .withName("pool-again")
            .endMetadata()
            .build();
    assertThat(supply(GPUS, List.of(first, again)).byNode().get("node-1"))
        .isEqualTo(ResourceList.of(GPU, 4));
  }

  @Test
  void devicesNoMappedClassSelectsCountNothingAndAreReported() {
    final DeviceSupply supply =
        supply(GPUS, List.of(sliceOn("node-1", "fpga.example.com", "node-1", 1, gpus(3))));
    assertThat(supply.byNode()).isEmpty();
    assertThat(supply.problems())
        .containsExactly(
            "driver fpga.example.com publishes 3 devices no mapped DeviceClass selects;"
                + " not counted in the cluster total");
    final List<QuotaNode> nodes = List.of(QuotaNode.healthy("node-1", CPU_ONLY));
    assertThat(supply.nodes(nodes)).isSameAs(nodes);
  }

  @Test
  void aDeviceCountsAsTheFirstMappedClassByNameWhoseDriverItMatches() {
    final DeviceClassMappings two =
        DeviceClassMappings.parse(
            "gpu.nvidia.com -> nvidia.com/gpu; a-big-gpu.example.com -> example.com/big-gpu x 2");
    final List<DeviceClass> classes =
        List.of(deviceClass("a-big-gpu.example.com", "device.driver == \"gpu.nvidia.com\""));
    final DeviceSupply supply =
        DeviceSupply.of(
            objects(
                classes,
                List.of(),
                List.of(),
                List.of(sliceOn("node-1", GPU_CLASS, "node-1", 1, gpus(3)))),
            two);
    assertThat(supply.byNode().get("node-1")).isEqualTo(ResourceList.of("example.com/big-gpu", 6));
  }

  @Test
  void devicesOfASliceBoundToNoNodeCountOnceInTheDefaultTreeOnly() {
    final DeviceSupply supply =
        supply(GPUS, List.of(sliceForAllNodes(GPU_CLASS, "fabric", gpus(16))));
    final List<QuotaNode> nodes =
        supply.nodes(List.of(QuotaNode.healthy("node-1", ResourceList.of(GPU, 8))));
    assertThat(nodes)
        .extracting(QuotaNode::name)
        .containsExactly("node-1", DeviceSupply.UNBOUND_NODE);
    assertThat(total(nodes)).isEqualTo(ResourceList.of(GPU, 24));
    final QuotaProfile everything =
        QuotaProfile.of("all-nodes", "all-root", ResourceRatio.ONE, NodeSelector.everything());
    final QuotaTrees trees =
        QuotaTrees.of(
            new ClusterInputs(List.of(), List.of(), nodes),
            List.of(everything),
            QuotaOptions.DEFAULTS);
    assertThat(trees.total(everything)).isEqualTo(ResourceList.of(GPU, 8));
  }

  @Test
  void aSliceOfANodeThatDoesNotCountCountsNothing() {
    final DeviceSupply supply =
        supply(
            GPUS,
            List.of(
                sliceOn("not-ready", GPU_CLASS, "not-ready", 1, gpus(8)),
                sliceOn("unknown-node", GPU_CLASS, "unknown-node", 1, gpus(8))));
    final List<QuotaNode> nodes =
        supply.nodes(List.of(new QuotaNode("not-ready", CPU_ONLY, false, true, false, List.of())));
    final QuotaOptions readyOnly = QuotaOptions.DEFAULTS.withOnlyReadySchedulableNodes(true);
    assertThat(
            QuotaCalculator.compute(new ClusterInputs(List.of(), List.of(), nodes), readyOnly)
                .total())
        .isEqualTo(ResourceList.empty());
  }

  @Test
  void withoutSlicesTheNodesAreTheSameList() {
    final List<QuotaNode> nodes = List.of(QuotaNode.healthy("node-1", ResourceList.of(GPU, 8)));
    assertThat(supply(GPUS, List.of()).nodes(nodes)).isSameAs(nodes);
    assertThat(supply(GPUS, List.of())).isEqualTo(DeviceSupply.none());
  }

  private static Device[] gpus(int count) {
    return IntStream.range(0, count).mapToObj(i -> gpu("gpu-" + i, "80Gi")).toArray(Device[]::new);
  }

  private static DeviceSupply supply(DeviceClassMappings mappings, List<ResourceSlice> slices) {
    return DeviceSupply.of(objects(List.of(), List.of(), List.of(), slices), mappings);
  }

  private static ResourceList total(List<QuotaNode> nodes) {
    return QuotaCalculator.compute(
            new ClusterInputs(List.of(), List.of(), nodes), QuotaOptions.DEFAULTS)
        .total();
  }
}
