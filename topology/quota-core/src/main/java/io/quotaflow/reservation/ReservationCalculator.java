package io.quotaflow.reservation;

import io.quotaflow.quota.PodRef;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.TreeSnapshot;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Every reservation of a cluster in one call, from scratch, as {@code simulate} computes them: no
 * lock held before, every reservation dated 0 (so the age order is the name order), the groups'
 * validity and the pods' groups from {@code snapshot}, the tree computed from the same inputs.
 */
public final class ReservationCalculator {

  private ReservationCalculator() {}

  /** The reservation statuses of {@code inputs}' groups that carry one, by group name. */
  public static Map<String, ReservationStatus> compute(
      ClusterInputs inputs, TreeSnapshot snapshot, QuotaOptions options) {
    final ClusterReservations reservations = new ClusterReservations(options);
    inputs.nodes().forEach(reservations::putNode);
    inputs.groups().forEach(reservations::putGroup);
    inputs.pods().forEach(reservations::putPod);
    final Map<PodRef, String> groups = new HashMap<>();
    for (final PodAssignment pod : snapshot.pods()) {
      // A pod resolving to a parent group is charged nowhere: it belongs to no group here either.
      if (pod.problem().isEmpty()) {
        groups.put(pod.ref(), pod.group());
      }
    }
    final Map<String, GroupStatus> statuses = new HashMap<>();
    snapshot.groups().forEach(status -> statuses.put(status.name(), status));
    return reservations.plan(
        0L,
        pod -> Optional.ofNullable(groups.get(pod)),
        group ->
            Optional.ofNullable(statuses.get(group))
                .filter(status -> !status.valid())
                .map(status -> status.reason().orElse("invalid")));
  }
}
