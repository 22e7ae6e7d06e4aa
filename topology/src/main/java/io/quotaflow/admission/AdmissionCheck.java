package io.quotaflow.admission;

import io.quotaflow.admission.Denial.Check;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.GroupStatus;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Whether one pod fits (SPEC 10): for its group and every ancestor below the root, in every
 * dimension the group tracks, {@code used + in-flight + request <= runtime}; a non-preemptible pod
 * also needs {@code non-preemptible used + non-preemptible in-flight + request <= min}. A group
 * already over its runtime in any dimension admits nothing, whatever the pod asks for.
 *
 * <p>The system group is never limited. The default group is bounded by its runtime only (it has no
 * guarantee for non-preemptible pods to fit in). An invalid group is checked against its frozen
 * runtime.
 */
public final class AdmissionCheck {

  private AdmissionCheck() {}

  public static AdmissionDecision check(
      AdmissionRequest request, GroupLookup groups, InFlight inFlight) {
    if (request.problem().isPresent()) {
      return denied(
          new Denial(Check.NOT_A_LEAF, request.group(), "", 0, 0, 0, 0, request.problem().get()));
    }
    final List<String> chain = new ArrayList<>();
    final List<Denial> denials = new ArrayList<>();
    final Set<String> seen = new HashSet<>();
    String name = request.group();
    while (!SpecialGroups.ROOT.equals(name) && !name.isEmpty() && seen.add(name)) {
      final Optional<GroupStatus> found = groups.find(name);
      if (found.isEmpty()) {
        denials.add(
            new Denial(Check.UNKNOWN_GROUP, name, "", 0, 0, 0, 0, "no computed status yet"));
        break;
      }
      final GroupStatus status = found.get();
      chain.add(name);
      if (!SpecialGroups.SYSTEM.equals(name)) {
        checkGroup(status, request, inFlight, denials);
      }
      name = status.parent();
    }
    if (!denials.isEmpty()) {
      return new AdmissionDecision(denials, Optional.empty());
    }
    return new AdmissionDecision(
        List.of(),
        Optional.of(
            new InFlight.Reservation(
                request.pod(), chain, request.request(), !request.preemptible())));
  }

  private static void checkGroup(
      GroupStatus status, AdmissionRequest request, InFlight inFlight, List<Denial> denials) {
    final ResourceList held = inFlight.at(status.name());
    final ResourceList npHeld = inFlight.nonPreemptibleAt(status.name());
    final boolean checkMin = !request.preemptible() && !SpecialGroups.DEFAULT.equals(status.name());
    for (final String dimension : status.trackedDimensions()) {
      final long asked = request.request().get(dimension);
      final long runtime = status.runtime().get(dimension);
      final long used = status.used().get(dimension);
      final long pending = held.get(dimension);
      if (exceeds(used, pending, asked, runtime)) {
        denials.add(
            new Denial(Check.RUNTIME, status.name(), dimension, runtime, used, pending, asked, ""));
      }
      if (checkMin) {
        final long min = status.min().get(dimension);
        final long npUsed = status.nonPreemptibleUsed().get(dimension);
        final long npPending = npHeld.get(dimension);
        if (exceeds(npUsed, npPending, asked, min)) {
          denials.add(
              new Denial(
                  Check.NON_PREEMPTIBLE_MIN,
                  status.name(),
                  dimension,
                  min,
                  npUsed,
                  npPending,
                  asked,
                  ""));
        }
      }
    }
  }

  /** {@code a + b + c > limit}, exactly: a sum beyond a long exceeds every limit. */
  private static boolean exceeds(long a, long b, long c, long limit) {
    final long partial = a + b;
    if (partial < 0) {
      return true;
    }
    final long sum = partial + c;
    return sum < 0 || sum > limit;
  }

  private static AdmissionDecision denied(Denial denial) {
    return new AdmissionDecision(List.of(denial), Optional.empty());
  }
}
