package io.quotaflow.reservation;

import io.quotaflow.quota.ResourceList;
import java.util.List;
import java.util.Objects;

/**
 * One choice of locked nodes to make.
 *
 * @param target what the nodes must cover
 * @param candidates the nodes to choose from, distinct names
 * @param capRemaining per dimension, how much allocatable may still be locked (the locked-share cap
 *     less what older locks hold); a dimension absent here is not capped
 * @param clusterTotal the cluster total, the scale on which the choice ranks amounts of different
 *     dimensions
 */
public record LockRequest(
    ReservationTarget target,
    List<ReservationCandidate> candidates,
    ResourceList capRemaining,
    ResourceList clusterTotal) {

  public LockRequest {
    Objects.requireNonNull(target, "target");
    candidates = List.copyOf(candidates);
    Objects.requireNonNull(capRemaining, "capRemaining");
    Objects.requireNonNull(clusterTotal, "clusterTotal");
  }
}
