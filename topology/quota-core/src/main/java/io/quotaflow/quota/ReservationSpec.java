package io.quotaflow.quota;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A quota group's node reservation as read from its annotation {@code quotaflow.io/reservation}:
 * lock nodes whose allocatable covers {@code resource} and/or {@code percentage} of the cluster, so
 * that pods of other groups are kept off them. Input only: which nodes are locked is computed by
 * {@code io.quotaflow.reservation}.
 *
 * <p>An annotation that cannot be read in full yields a spec with {@link #problems}: the
 * reservation is then invalid and locks nothing, while the group's quota is read and computed as if
 * the annotation were absent.
 *
 * @param policy BestEffort (the default) or Guaranteed
 * @param resource the amounts to reserve, canonical units; empty when not given
 * @param percentage a share of the cluster; empty when not given
 * @param problems what could not be read, each naming its field; empty when read in full
 */
public record ReservationSpec(
    ReservationPolicy policy,
    Optional<ResourceList> resource,
    Optional<ReservationPercentage> percentage,
    List<SpecProblem> problems) {

  public ReservationSpec {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(percentage, "percentage");
    problems = List.copyOf(problems);
  }

  /** A reservation of {@code resource} with {@code policy}. */
  public static ReservationSpec of(ReservationPolicy policy, ResourceList resource) {
    return new ReservationSpec(policy, Optional.of(resource), Optional.empty(), List.of());
  }

  /** A reservation that could not be read: it locks nothing. */
  public static ReservationSpec unreadable(List<SpecProblem> problems) {
    return new ReservationSpec(
        ReservationPolicy.BEST_EFFORT, Optional.empty(), Optional.empty(), problems);
  }

  /** This spec with {@code percentage} as well. */
  public ReservationSpec withPercentage(ReservationPercentage percentage) {
    return new ReservationSpec(policy, resource, Optional.of(percentage), problems);
  }

  /**
   * Whether {@code other} asks for the same nodes: the same resource and percentage (the policy may
   * differ). A reservation whose target changes queues behind the older ones again.
   */
  public boolean sameTarget(ReservationSpec other) {
    return resource.equals(other.resource)
        && percentage.equals(other.percentage)
        && problems.equals(other.problems);
  }
}
