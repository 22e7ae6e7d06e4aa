package io.quotaflow.reservation;

import io.quotaflow.quota.ReservationPolicy;
import io.quotaflow.quota.ResourceList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The state of one group's reservation: which nodes are locked for it, whether they cover its
 * target, and what is idle on them. Published on the group's runtime record, in the query API, in
 * {@code simulate --output json} as {@code quotas[].reservation} and in the annotation {@code
 * quotaflow.io/reservation-status}.
 *
 * @param policy BestEffort or Guaranteed
 * @param valid false when the annotation is unreadable, breaks a rule, or the group is invalid
 * @param reason why it is invalid or not satisfied; empty when satisfied
 * @param target what the locked nodes cover (empty when it could not be computed)
 * @param minNodes the fewest nodes of the lock
 * @param nodes the locked nodes, by name; empty when not satisfied
 * @param satisfied the locked nodes cover the target
 * @param idle the locked nodes' allocatable beyond the requests of the unfinished pods bound to
 *     them, per dimension, each node's share at least 0
 * @param requestedAt when the current target was first seen (epoch millis; 0 in {@code simulate}):
 *     the older reservation keeps its lock first
 */
public record ReservationStatus(
    ReservationPolicy policy,
    boolean valid,
    Optional<String> reason,
    ResourceList target,
    int minNodes,
    List<String> nodes,
    boolean satisfied,
    ResourceList idle,
    long requestedAt) {

  public ReservationStatus {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(target, "target");
    nodes = List.copyOf(nodes);
    Objects.requireNonNull(idle, "idle");
  }

  /** This status with other idle amounts. */
  public ReservationStatus withIdle(ResourceList idle) {
    return new ReservationStatus(
        policy, valid, reason, target, minNodes, nodes, satisfied, idle, requestedAt);
  }
}
