package io.quotaflow.tree;

import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Fixture builders for quota core tests: {@code quota("a").min(cpu(10))}, {@code cluster()}. */
public final class Fixtures {

  public static final String GPU = "nvidia.com/gpu";
  public static final String GPU_MEMORY = "quotaflow.io/gpu-memory";

  private Fixtures() {}

  public static ResourceList cpu(long milli) {
    return ResourceList.of(ResourceList.CPU, milli);
  }

  public static ResourceList memory(long bytes) {
    return ResourceList.of(ResourceList.MEMORY, bytes);
  }

  public static ResourceList cpuMemory(long milli, long bytes) {
    return ResourceList.of(ResourceList.CPU, milli, ResourceList.MEMORY, bytes);
  }

  /** {@code res("cpu", 1, "memory", 2)}. */
  public static ResourceList res(Object... pairs) {
    final Map<String, Long> map = new TreeMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put((String) pairs[i], ((Number) pairs[i + 1]).longValue());
    }
    return ResourceList.of(map);
  }

  /**
   * A group whose ElasticQuota lives in namespace {@code ns-NAME}, where {@link #pod} puts the pods
   * labelled with it: the binding is declared (issue 39: a group of unknown namespace admits none).
   */
  public static QuotaGroup.Builder quota(String name) {
    return QuotaGroup.builder(name).namespace("ns-" + name);
  }

  public static QuotaGroup.Builder parentQuota(String name) {
    return quota(name).parentGroup(true);
  }

  /** A pending pod in namespace {@code ns} charged (by label) to group {@code group}. */
  public static QuotaPod.Builder pod(String group, String name) {
    return QuotaPod.builder("ns-" + group, name).quotaName(group);
  }

  /** A pod bound to node-1 and Running, charged to {@code group}. */
  public static QuotaPod.Builder runningPod(String group, String name) {
    return pod(group, name).running("node-1");
  }

  public static QuotaNode node(String name, ResourceList allocatable) {
    return QuotaNode.healthy(name, allocatable);
  }

  public static Instant at(long seconds) {
    return Instant.ofEpochSecond(seconds);
  }

  public static ClusterBuilder cluster() {
    return new ClusterBuilder();
  }

  /** Collects a cluster's inputs; {@link #compute()} runs the full calculation. */
  public static final class ClusterBuilder {
    private final List<QuotaGroup> groups = new ArrayList<>();
    private final List<QuotaPod> pods = new ArrayList<>();
    private final List<QuotaNode> nodes = new ArrayList<>();
    private QuotaOptions options = QuotaOptions.DEFAULTS;
    private int podCount;

    public ClusterBuilder total(ResourceList allocatable) {
      nodes.add(Fixtures.node("node-" + (nodes.size() + 1), allocatable));
      return this;
    }

    public ClusterBuilder node(QuotaNode node) {
      nodes.add(node);
      return this;
    }

    public ClusterBuilder group(QuotaGroup.Builder group) {
      groups.add(group.build());
      return this;
    }

    public ClusterBuilder group(QuotaGroup group) {
      groups.add(group);
      return this;
    }

    public ClusterBuilder pod(QuotaPod.Builder pod) {
      pods.add(pod.build());
      return this;
    }

    public ClusterBuilder pod(QuotaPod pod) {
      pods.add(pod);
      return this;
    }

    /** One pending pod of {@code group} asking for {@code request}. */
    public ClusterBuilder demand(String group, ResourceList request) {
      podCount++;
      return pod(Fixtures.pod(group, "p" + podCount).request(request));
    }

    /** One running pod of {@code group} holding {@code request}. */
    public ClusterBuilder holding(String group, ResourceList request) {
      podCount++;
      return pod(
          Fixtures.pod(group, "p" + podCount)
              .request(request)
              .phase(PodPhase.RUNNING)
              .nodeName("node-1")
              .creationTime(at(podCount)));
    }

    public ClusterBuilder options(QuotaOptions options) {
      this.options = options;
      return this;
    }

    public ClusterInputs inputs() {
      return new ClusterInputs(groups, pods, nodes);
    }

    public QuotaOptions options() {
      return options;
    }

    public TreeSnapshot compute() {
      return QuotaCalculator.compute(inputs(), options);
    }

    /**
     * {@link #compute()}, after checking that the explanation of every group's runtime recomputes
     * it (issue 27): for the worked examples of the designs and the specification's tables.
     */
    public TreeSnapshot computeExplained() {
      ExplanationCheck.verifyAll(state());
      return compute();
    }

    /** The incremental state restored from these inputs and recomputed once. */
    public ClusterQuotaState state() {
      final ClusterQuotaState state =
          ClusterQuotaState.restore(
              options, inputs(), new TreeSnapshot(ResourceList.empty(), List.of(), List.of()));
      state.recompute();
      return state;
    }
  }

  /** The runtime of a group in one dimension, failing when the group is absent. */
  public static long runtime(TreeSnapshot snapshot, String group, String dimension) {
    return status(snapshot, group).runtime().get(dimension);
  }

  public static GroupStatus status(TreeSnapshot snapshot, String group) {
    return snapshot
        .group(group)
        .orElseThrow(() -> new AssertionError("no group " + group + " in " + snapshot.groups()));
  }
}
