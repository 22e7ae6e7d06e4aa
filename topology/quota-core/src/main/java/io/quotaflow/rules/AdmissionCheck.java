package io.quotaflow.rules;

import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.rules.Denial.Check;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.WhatIfInputs;
import io.quotaflow.tree.WhatIfRuntimes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Whether one pod fits (SPEC 10): for its group and every ancestor below the root, in every
 * dimension the group tracks, {@code used + in-flight + request <= runtime}; a non-preemptible pod
 * also needs {@code non-preemptible used + non-preemptible in-flight + request <= min}. A group
 * already over its runtime in any dimension admits nothing, whatever the pod asks for.
 *
 * <p>Which runtime bounds the check depends on whether the pod is already counted in its group's
 * request. The scheduler filter sees pods the engine already counts as pending, so their runtimes
 * as computed are the bound ({@link #check(AdmissionRequest, GroupLookup, InFlight)}). At pod
 * creation the pod is counted nowhere yet, and a group whose runtime follows its demand (a lender,
 * a borrower capped at its request) would have no room for any new pod; the bound is then the
 * runtime the group and its ancestors would have with the pod, and the in-flight admissions, added
 * to the group's request: a what-if along the ancestor path ({@link WhatIfRuntimes}, {@link
 * #check(AdmissionRequest, WhatIfInputs, InFlight, PodState, boolean)}).
 *
 * <p>The system group is never limited. The default group is bounded by its runtime only (it has no
 * guarantee for non-preemptible pods to fit in). An invalid group is checked against its frozen
 * runtime.
 */
public final class AdmissionCheck {

  private AdmissionCheck() {}

  /** Whether the pod is already counted in its group's request by the computed state. */
  public enum PodState {
    /** Not yet seen by the engine (pod creation): the bound is the what-if runtime. */
    NEW,
    /** Counted as pending already (the scheduler filter): no need to add it again. */
    COUNTED
  }

  /**
   * Checks {@code request} against the runtimes as computed: right for a pod the state already
   * counts in its group's request. Without the groups' specifications a runtime held at min plus
   * the borrowing limit is reported as {@link io.quotaflow.reason.Reason#EXCEEDS_RUNTIME}.
   */
  public static AdmissionDecision check(
      AdmissionRequest request, GroupLookup groups, InFlight inFlight) {
    return check(request, groups, name -> Optional.empty(), inFlight, Map.of());
  }

  /**
   * Checks {@code request} against the runtimes its group and ancestors would have if its group's
   * request grew by what the in-flight admissions at the group hold, plus the pod's own request
   * when {@code pod} is {@link PodState#NEW}. In-flight pods the state already counts as pending
   * are added once more: that can only raise the bound, by at most what they hold.
   *
   * @param minScaling whether the state was computed with min scaling on
   */
  public static AdmissionDecision check(
      AdmissionRequest request,
      WhatIfInputs state,
      InFlight inFlight,
      PodState pod,
      boolean minScaling) {
    return check(request, state, inFlight, pod, QuotaOptions.DEFAULTS.withMinScaling(minScaling));
  }

  /**
   * {@link #check(AdmissionRequest, WhatIfInputs, InFlight, PodState, boolean)} under every switch
   * of {@code options} the state was computed with (min scaling, the guarantee of allocated usage,
   * parent groups owning pods).
   */
  public static AdmissionDecision check(
      AdmissionRequest request,
      WhatIfInputs state,
      InFlight inFlight,
      PodState pod,
      QuotaOptions options) {
    return check(
        request,
        state,
        inFlight,
        pod,
        options,
        whatIf(request, state, inFlight.at(request.group()), pod, options));
  }

  /**
   * The what-if runtimes of a check, computed for {@code held} in flight at the pod's group: the
   * only part of the in-flight admissions the what-if reads.
   *
   * @param held what the in-flight admissions held at the pod's group when computed
   * @param runtimes the what-if runtimes along the pod's path; empty for a request with a problem
   */
  public record WhatIf(ResourceList held, Map<String, ResourceList> runtimes) {}

  /**
   * The what-if of {@link #check(AdmissionRequest, WhatIfInputs, InFlight, PodState, QuotaOptions)}
   * with {@code held} in flight at the pod's group, for a caller to compute ahead, outside whatever
   * makes its check and in-flight hold atomic (it is the costly part of a check).
   */
  public static WhatIf whatIf(
      AdmissionRequest request,
      WhatIfInputs state,
      ResourceList held,
      PodState pod,
      QuotaOptions options) {
    if (request.problem().isPresent()) {
      return new WhatIf(held, Map.of());
    }
    final ResourceList extra = pod == PodState.NEW ? held.plus(request.request()) : held;
    return new WhatIf(held, WhatIfRuntimes.compute(state, request.group(), extra, options));
  }

  /**
   * {@link #check(AdmissionRequest, WhatIfInputs, InFlight, PodState, QuotaOptions)} with the
   * what-if computed ahead, used when {@code inFlight} still holds what it was computed for at the
   * pod's group, computed again otherwise: the decision is the same either way.
   */
  public static AdmissionDecision check(
      AdmissionRequest request,
      WhatIfInputs state,
      InFlight inFlight,
      PodState pod,
      QuotaOptions options,
      WhatIf ahead) {
    final GroupLookup groups = state::status;
    if (request.problem().isPresent()) {
      return check(request, groups, inFlight);
    }
    final ResourceList held = inFlight.at(request.group());
    final WhatIf whatIf =
        held.equals(ahead.held()) ? ahead : whatIf(request, state, held, pod, options);
    return check(request, groups, state::spec, inFlight, whatIf.runtimes());
  }

  /**
   * @param specs the groups' specifications where known: they tell a runtime held at min plus the
   *     borrowing limit ({@link RuntimeLimit})
   */
  static AdmissionDecision check(
      AdmissionRequest request,
      GroupLookup groups,
      Function<String, Optional<QuotaGroup>> specs,
      InFlight inFlight,
      Map<String, ResourceList> runtimes) {
    if (request.problem().isPresent()) {
      return denied(
          new Denial(
              request.problemCheck(), request.group(), "", 0, 0, 0, 0, request.problem().get()));
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
        checkGroup(
            status,
            specs,
            runtimes.getOrDefault(name, status.runtime()),
            request,
            inFlight,
            denials);
      }
      name = status.parent();
    }
    if (!denials.isEmpty()) {
      return new AdmissionDecision(denials, Optional.empty());
    }
    return new AdmissionDecision(
        List.of(),
        Optional.of(
            new InFlight.Hold(request.pod(), chain, request.request(), !request.preemptible())));
  }

  private static void checkGroup(
      GroupStatus status,
      Function<String, Optional<QuotaGroup>> specs,
      ResourceList bound,
      AdmissionRequest request,
      InFlight inFlight,
      List<Denial> denials) {
    final ResourceList held = inFlight.at(status.name());
    final ResourceList npHeld = inFlight.nonPreemptibleAt(status.name());
    final boolean checkMin = !request.preemptible() && !SpecialGroups.DEFAULT.equals(status.name());
    for (final String dimension : status.trackedDimensions()) {
      final long asked = request.request().get(dimension);
      final long runtime = bound.get(dimension);
      final long used = status.used().get(dimension);
      final long pending = held.get(dimension);
      if (exceeds(used, pending, asked, runtime)) {
        denials.add(
            new Denial(
                Check.RUNTIME,
                RuntimeLimit.reason(status, specs.apply(status.name()), dimension, runtime),
                status.name(),
                dimension,
                runtime,
                used,
                pending,
                asked,
                ""));
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
