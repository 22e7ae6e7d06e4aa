package io.quotaflow.reservation;

import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.reason.Reason;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Which group's reservation locks each node, for the scheduler filter: a locked node takes no new
 * pod of another group. Pods of the system group pass everywhere (it is never limited), and so do
 * pods the caller exempts (excluded namespaces, DaemonSet pods).
 */
public final class LockedNodes {

  private static final LockedNodes NONE = new LockedNodes(Map.of());

  private final Map<String, String> lockedBy;

  private LockedNodes(Map<String, String> lockedBy) {
    this.lockedBy = Map.copyOf(lockedBy);
  }

  /** No node locked. */
  public static LockedNodes none() {
    return NONE;
  }

  /** The locks of the satisfied reservations among {@code statuses} (group name to status). */
  public static LockedNodes of(Map<String, ReservationStatus> statuses) {
    final Map<String, String> lockedBy = new HashMap<>();
    statuses.forEach(
        (group, status) -> {
          if (status.satisfied()) {
            status.nodes().forEach(node -> lockedBy.put(node, group));
          }
        });
    return lockedBy.isEmpty() ? NONE : new LockedNodes(lockedBy);
  }

  /** The group whose reservation locks {@code node}, if one does. */
  public Optional<String> lockedBy(String node) {
    return Optional.ofNullable(lockedBy.get(node));
  }

  public boolean isEmpty() {
    return lockedBy.isEmpty();
  }

  /**
   * Why a new pod of {@code group} may not go to {@code node}: the node is locked by another
   * group's reservation. Empty when it may. Led by the reason's code, {@code node-reserved}.
   */
  public Optional<String> refusal(String group, String node) {
    Objects.requireNonNull(group, "group");
    final String owner = lockedBy.get(node);
    if (owner == null || owner.equals(group) || SpecialGroups.SYSTEM.equals(group)) {
      return Optional.empty();
    }
    return Optional.of(
        "quotaflow: "
            + Reason.NODE_RESERVED.code()
            + ": node "
            + node
            + " is locked by the reservation of quota group "
            + owner
            + " (quotaflow.io/reservation); pods of "
            + group
            + " may not use it");
  }
}
