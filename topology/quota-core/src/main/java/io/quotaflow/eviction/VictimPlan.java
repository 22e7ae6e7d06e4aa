package io.quotaflow.eviction;

import io.quotaflow.quota.ResourceList;
import java.util.List;
import java.util.Objects;

/**
 * The victims chosen for one over-used group and the numbers that justify them.
 *
 * @param group the group
 * @param runtime its runtime
 * @param used its used, not counting pods already terminating
 * @param usedAfter its used once the victims are gone
 * @param overDimensions where used exceeds runtime
 * @param victims the pods to evict, in the order they were chosen (least important first)
 */
public record VictimPlan(
    String group,
    ResourceList runtime,
    ResourceList used,
    ResourceList usedAfter,
    List<String> overDimensions,
    List<Victim> victims) {

  public VictimPlan {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(runtime, "runtime");
    Objects.requireNonNull(used, "used");
    Objects.requireNonNull(usedAfter, "usedAfter");
    overDimensions = List.copyOf(overDimensions);
    victims = List.copyOf(victims);
  }

  public boolean isEmpty() {
    return victims.isEmpty();
  }
}
