package io.quotaflow.reservation;

import io.quotaflow.quota.ResourceList;
import java.util.Objects;

/**
 * A node a reservation may lock: schedulable, Ready, not being deleted, and not locked by another
 * reservation.
 *
 * @param name the node name
 * @param allocatable its allocatable, derived resources added, canonical units
 * @param idle its allocatable beyond what the unfinished pods bound to it request, at least 0
 * @param groupUsed what the reserving group's pods bound to it request
 * @param heldByGroup whether the reservation locks it already
 */
public record ReservationCandidate(
    String name,
    ResourceList allocatable,
    ResourceList idle,
    ResourceList groupUsed,
    boolean heldByGroup) {

  public ReservationCandidate {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(allocatable, "allocatable");
    Objects.requireNonNull(idle, "idle");
    Objects.requireNonNull(groupUsed, "groupUsed");
  }
}
