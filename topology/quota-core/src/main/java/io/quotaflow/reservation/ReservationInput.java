package io.quotaflow.reservation;

import io.quotaflow.quota.QuotaGroup;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One group's reservation as the planner takes it.
 *
 * @param group the group's specification; its reservation is present
 * @param groupProblem why the group itself is invalid (SPEC 9), if it is: it locks nothing then
 * @param requestedAt when its current target was first seen (epoch millis): the age order
 * @param held the nodes it locks now, from the last plan; empty for a new reservation
 */
public record ReservationInput(
    QuotaGroup group, Optional<String> groupProblem, long requestedAt, List<String> held) {

  public ReservationInput {
    Objects.requireNonNull(group, "group");
    if (group.reservation().isEmpty()) {
      throw new IllegalArgumentException("group " + group.name() + " has no reservation");
    }
    Objects.requireNonNull(groupProblem, "groupProblem");
    held = List.copyOf(held);
  }

  public String name() {
    return group.name();
  }
}
