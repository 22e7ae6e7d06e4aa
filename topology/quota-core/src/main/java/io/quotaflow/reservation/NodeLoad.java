package io.quotaflow.reservation;

import io.quotaflow.quota.ResourceList;
import java.util.Map;
import java.util.Objects;

/**
 * What the pods bound to the cluster's nodes request: what makes a node idle or not, and which
 * groups use it. Only unfinished pods count (a terminating pod holds its resources until gone);
 * requests have derived resources added, as the nodes' allocatable does.
 *
 * @param requested per node, every pod's request summed (saturating)
 * @param usedByGroup per group, per node, its pods' requests summed
 */
public record NodeLoad(
    Map<String, ResourceList> requested, Map<String, Map<String, ResourceList>> usedByGroup) {

  public NodeLoad {
    requested = Map.copyOf(requested);
    usedByGroup = Map.copyOf(usedByGroup);
  }

  /** No pod anywhere. */
  public static NodeLoad none() {
    return new NodeLoad(Map.of(), Map.of());
  }

  /** What the pods on {@code node} request. */
  public ResourceList requestedOn(String node) {
    return requested.getOrDefault(node, ResourceList.empty());
  }

  /** What the pods of {@code group} on {@code node} request. */
  public ResourceList usedOn(String group, String node) {
    final Map<String, ResourceList> byNode = usedByGroup.get(group);
    return byNode == null ? ResourceList.empty() : byNode.getOrDefault(node, ResourceList.empty());
  }

  /** {@code allocatable} less what the pods on {@code node} request, at least 0 per dimension. */
  public ResourceList idleOn(String node, ResourceList allocatable) {
    final ResourceList requestedHere = requestedOn(node);
    final ResourceList.Builder idle = ResourceList.builder();
    allocatable
        .asMap()
        .forEach(
            (dimension, amount) ->
                idle.put(
                    dimension, Math.max(0, amount - Math.max(0, requestedHere.get(dimension)))));
    return idle.build();
  }

  /** Requires both maps. */
  static NodeLoad of(
      Map<String, ResourceList> requested, Map<String, Map<String, ResourceList>> usedByGroup) {
    return new NodeLoad(
        Objects.requireNonNull(requested, "requested"),
        Objects.requireNonNull(usedByGroup, "usedByGroup"));
  }
}
