package io.quotaflow.dra;

import static io.quotaflow.dra.Dra.GPU;
import static io.quotaflow.dra.Dra.GPU_CLASS;
import static io.quotaflow.dra.Dra.gpu;
import static io.quotaflow.dra.Dra.objects;
import static io.quotaflow.dra.Dra.sliceOn;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.QuotaCalculator;
import io.quotaflow.tree.QuotaOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Invariants of counting published devices toward the cluster total (semantics.md 22.8). */
class DeviceSupplyProperties {

  private static final DeviceClassMappings MAPPINGS =
      DeviceClassMappings.parse("gpu.nvidia.com -> nvidia.com/gpu; tpu.example.com -> tpu x 4");

  /** A node: its allocatable GPUs, readiness, and the GPUs its own slice publishes (0: none). */
  record NodeSpec(long cpu, long gpus, boolean ready, boolean deleting, int sliceGpus) {}

  @Property(tries = 300)
  void withoutCountedSlicesTheTotalIsBitForBitAsBefore(
      @ForAll @Size(max = 6) List<@From("nodes") NodeSpec> specs,
      @ForAll boolean readyOnly,
      @ForAll @IntRange(max = 4) int unmappedSlices) {
    final List<QuotaNode> nodes = nodes(specs);
    final List<ResourceSlice> slices = new ArrayList<>();
    // Slices of a driver no class maps count nothing, whatever node they name.
    for (int i = 0; i < unmappedSlices; i++) {
      slices.add(sliceOn("node-" + i, "fpga.example.com", "pool-" + i, 1, devices(i + 1)));
    }
    final DeviceSupply supply =
        DeviceSupply.of(objects(List.of(), List.of(), List.of(), slices), MAPPINGS);
    assertThat(supply.nodes(nodes)).isSameAs(nodes);
    final QuotaOptions options = QuotaOptions.DEFAULTS.withOnlyReadySchedulableNodes(readyOnly);
    assertThat(total(supply.nodes(nodes), options)).isEqualTo(total(nodes, options));
  }

  @Property(tries = 300)
  void eachCountedNodeGivesTheLargerOfItsAllocatableAndItsSlices(
      @ForAll @Size(max = 6) List<@From("nodes") NodeSpec> specs, @ForAll boolean readyOnly) {
    final List<QuotaNode> nodes = nodes(specs);
    final List<ResourceSlice> slices = new ArrayList<>();
    for (int i = 0; i < specs.size(); i++) {
      if (specs.get(i).sliceGpus() > 0) {
        // An older generation of the same pool, twice as large, never counts.
        slices.add(
            sliceOn("node-" + i, GPU_CLASS, "node-" + i, 1, devices(2 * specs.get(i).sliceGpus())));
        slices.add(
            sliceOn("node-" + i, GPU_CLASS, "node-" + i, 2, devices(specs.get(i).sliceGpus())));
      }
    }
    final List<QuotaNode> supplied =
        DeviceSupply.of(objects(List.of(), List.of(), List.of(), slices), MAPPINGS).nodes(nodes);
    long expected = 0;
    boolean anyGpu = false;
    for (final NodeSpec spec : specs) {
      final boolean counts = !spec.deleting() && (!readyOnly || spec.ready());
      if (counts && (spec.gpus() > 0 || spec.sliceGpus() > 0)) {
        expected += Math.max(spec.gpus(), spec.sliceGpus());
        anyGpu = true;
      }
    }
    final ResourceList total =
        total(supplied, QuotaOptions.DEFAULTS.withOnlyReadySchedulableNodes(readyOnly));
    assertThat(total.contains(GPU)).isEqualTo(anyGpu);
    assertThat(total.get(GPU)).isEqualTo(expected);
    assertThat(total.get("cpu"))
        .isEqualTo(
            total(nodes, QuotaOptions.DEFAULTS.withOnlyReadySchedulableNodes(readyOnly))
                .get("cpu"));
  }

  @Provide
  Arbitrary<NodeSpec> nodes() {
    return Combinators.combine(
            Arbitraries.longs().between(0, 128_000),
            Arbitraries.longs().between(0, 8),
            Arbitraries.of(true, false),
            Arbitraries.of(false, false, true),
            Arbitraries.integers().between(0, 8))
        .as(NodeSpec::new);
  }

  private static List<QuotaNode> nodes(List<NodeSpec> specs) {
    final List<QuotaNode> nodes = new ArrayList<>();
    for (int i = 0; i < specs.size(); i++) {
      final NodeSpec spec = specs.get(i);
      final ResourceList allocatable =
          spec.gpus() == 0
              ? ResourceList.of("cpu", spec.cpu())
              : ResourceList.of("cpu", spec.cpu(), GPU, spec.gpus());
      nodes.add(
          new QuotaNode("node-" + i, allocatable, spec.ready(), true, spec.deleting(), List.of()));
    }
    return nodes;
  }

  private static Device[] devices(int count) {
    return IntStream.range(0, count).mapToObj(i -> gpu("dev-" + i, "40Gi")).toArray(Device[]::new);
  }

  private static ResourceList total(List<QuotaNode> nodes, QuotaOptions options) {
    return QuotaCalculator.compute(new ClusterInputs(List.of(), List.of(), nodes), options).total();
  }
}
