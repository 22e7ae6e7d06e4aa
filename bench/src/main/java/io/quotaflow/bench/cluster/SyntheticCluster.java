package io.quotaflow.bench.cluster;

import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.ClusterInputs;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * A generated cluster and the facts about it that the benchmarks need.
 *
 * @param shape what it was generated from
 * @param inputs the groups, pods and nodes, as the quota core reads them
 * @param leaves the leaf groups, in generation order
 * @param total the sum of the nodes' allocatable
 * @param leafDemand the sum over leaves of their request floored at min for non-lenders and capped
 *     at max: what the leaves would take if the cluster were big enough. It exceeds {@code total}
 *     in every dimension, so surplus really has to be shared.
 */
public record SyntheticCluster(
    ClusterShape shape,
    ClusterInputs inputs,
    List<Leaf> leaves,
    ResourceList total,
    ResourceList leafDemand) {

  public SyntheticCluster {
    Objects.requireNonNull(shape, "shape");
    Objects.requireNonNull(inputs, "inputs");
    leaves = List.copyOf(leaves);
    Objects.requireNonNull(total, "total");
    Objects.requireNonNull(leafDemand, "leafDemand");
  }

  /**
   * A leaf group.
   *
   * @param name the group name; its pods live in the namespace of the same name
   * @param tracksGpu whether the group tracks {@code nvidia.com/gpu}
   */
  public record Leaf(String name, boolean tracksGpu) {
    public Leaf {
      Objects.requireNonNull(name, "name");
    }
  }

  /**
   * A new pending pod for {@code leaf}, sized like the generated ones: what a pod-created event
   * carries in the incremental benchmark.
   */
  public static QuotaPod newPod(Leaf leaf, long serial, SplittableRandom random) {
    final long cpu = 500L * random.nextInt(1, 17);
    final long memory = Dimensions.GI * random.nextInt(1, 33);
    final ResourceList request =
        leaf.tracksGpu()
            ? Dimensions.cpuMemoryGpu(cpu, memory, random.nextInt(0, 3))
            : Dimensions.cpuMemory(cpu, memory);
    return QuotaPod.builder(leaf.name(), "event-" + serial)
        .quotaName(leaf.name())
        .request(request)
        .priority(random.nextInt(0, 1000))
        .build();
  }
}
