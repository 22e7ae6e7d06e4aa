package io.quotaflow.engine;

import io.quotaflow.engine.convert.InputRecords;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaCalculator;
import io.quotaflow.tree.QuotaOptions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The inputs a test has sent so far, per cluster, and what the core's full computation makes of
 * them: the reference an engine's output is compared with.
 */
public final class InputModel {
  private final Map<String, Map<PodRef, QuotaPod>> pods = new HashMap<>();
  private final Map<String, Map<String, QuotaGroup>> groups = new HashMap<>();
  private final Map<String, Map<String, QuotaNode>> nodes = new HashMap<>();

  public void putPod(
      final String cluster, final String namespace, final String name, final PodState pod) {
    pods.computeIfAbsent(cluster, c -> new HashMap<>())
        .put(new PodRef(namespace, name), InputRecords.pod(namespace, name, pod));
  }

  public void deletePod(final String cluster, final String namespace, final String name) {
    pods.getOrDefault(cluster, new HashMap<>()).remove(new PodRef(namespace, name));
  }

  public void putQuota(final String cluster, final String name, final QuotaSpec spec) {
    groups.computeIfAbsent(cluster, c -> new HashMap<>()).put(name, InputRecords.group(name, spec));
  }

  public void deleteQuota(final String cluster, final String name) {
    groups.getOrDefault(cluster, new HashMap<>()).remove(name);
  }

  public void putNode(final String cluster, final String name, final NodeState node) {
    nodes.computeIfAbsent(cluster, c -> new HashMap<>()).put(name, InputRecords.node(name, node));
  }

  public void deleteNode(final String cluster, final String name) {
    nodes.getOrDefault(cluster, new HashMap<>()).remove(name);
  }

  public Set<String> clusters() {
    final Set<String> clusters = new TreeSet<>(pods.keySet());
    clusters.addAll(groups.keySet());
    clusters.addAll(nodes.keySet());
    return clusters;
  }

  /** The core's full computation on the inputs of {@code cluster}, by group name. */
  public Map<String, GroupStatus> expected(final String cluster, final QuotaOptions options) {
    final Map<String, GroupStatus> byName = new TreeMap<>();
    QuotaCalculator.compute(
            new ClusterInputs(
                new ArrayList<>(groups.getOrDefault(cluster, Map.of()).values()),
                new ArrayList<>(pods.getOrDefault(cluster, Map.of()).values()),
                new ArrayList<>(nodes.getOrDefault(cluster, Map.of()).values())),
            options)
        .groups()
        .forEach(status -> byName.put(status.name(), status));
    return byName;
  }
}
