package io.quotaflow.admission.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.dra.ClaimedDevices;
import io.quotaflow.dra.DeviceClassMappings;
import io.quotaflow.dra.DeviceSupply;
import io.quotaflow.engine.store.InputId;
import io.quotaflow.engine.store.InputId.InputKind;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.schemas.DeviceClassState;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.schemas.ResourceSliceState;
import io.quotaflow.schemas.SliceDevice;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaCalculator;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.TreeSnapshot;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The what-if of admission starts from the cluster's stored inputs, read as the engine reads them:
 * on a DRA-only cluster the slice's GPUs are in the total it redistributes (semantics.md 22.8).
 */
class StoredInputsTest {
  private static final String EAST = "east";
  private static final String GPU = "nvidia.com/gpu";

  @Test
  void aDraOnlyNodeCountsItsSlicesGpusInTheInputsAdmissionRedistributes() {
    final StoredInputs stored =
        new StoredInputs(new ClaimedDevices(DeviceClassMappings.defaults()));
    // In the store's order: the DRA kinds after the node, the quota last.
    stored.add(id(InputKind.NODE, "n1"), node(Map.of("cpu", 64_000L)));
    stored.add(
        id(InputKind.DEVICE_CLASS, "gpu.nvidia.com"),
        new DeviceClassState(List.of("device.driver == \"gpu.nvidia.com\"")));
    stored.add(id(InputKind.RESOURCE_SLICE, "n1-gpus"), slice("n1", 8));
    stored.add(
        id(InputKind.QUOTA, "team-a"),
        QuotaSpec.newBuilder()
            .setMin(Map.of("cpu", 8_000L, GPU, 4L))
            .setMax(Map.of("cpu", 32_000L, GPU, 8L))
            .build());

    final ClusterInputs inputs = stored.inputs();

    assertThat(inputs.nodes())
        .extracting(QuotaNode::allocatable)
        .containsExactly(ResourceList.of("cpu", 64_000, GPU, 8));
    final TreeSnapshot computed = QuotaCalculator.compute(inputs, QuotaOptions.DEFAULTS);
    assertThat(computed.total().get(GPU)).isEqualTo(8);
    assertThat(runtime(computed, SpecialGroups.ROOT).get(GPU)).isEqualTo(8);
  }

  @Test
  void aSliceBoundToNoNodeAddsItsNodeAndNoSliceLeavesTheNodesAsRead() {
    final StoredInputs stored =
        new StoredInputs(new ClaimedDevices(DeviceClassMappings.defaults()));
    stored.add(id(InputKind.NODE, "n1"), node(Map.of("cpu", 64_000L, GPU, 4L)));
    assertThat(stored.inputs().nodes())
        .extracting(QuotaNode::allocatable)
        .containsExactly(ResourceList.of("cpu", 64_000, GPU, 4));

    stored.add(id(InputKind.RESOURCE_SLICE, "fabric"), slice("", 2));

    assertThat(stored.inputs().nodes())
        .extracting(QuotaNode::name)
        .containsExactly("n1", DeviceSupply.UNBOUND_NODE);
  }

  private static ResourceList runtime(final TreeSnapshot snapshot, final String group) {
    return snapshot.groups().stream()
        .filter(status -> status.name().equals(group))
        .map(GroupStatus::runtime)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no group " + group));
  }

  private static InputId id(final InputKind kind, final String name) {
    return new InputId(EAST, kind, "", name);
  }

  private static NodeState node(final Map<String, Long> allocatable) {
    return NodeState.newBuilder()
        .setAllocatable(allocatable)
        .setReady(true)
        .setSchedulable(true)
        .setDeleting(false)
        .setProblems(List.of())
        .build();
  }

  private static ResourceSliceState slice(final String node, final int gpus) {
    return ResourceSliceState.newBuilder()
        .setDriver("gpu.nvidia.com")
        .setPool(node.isEmpty() ? "fabric" : node)
        .setDevices(
            IntStream.range(0, gpus)
                .mapToObj(i -> new SliceDevice("gpu-" + i, Map.of("memory", "80Gi")))
                .toList())
        .setNodeName(node)
        .setGeneration(1L)
        .build();
  }
}
