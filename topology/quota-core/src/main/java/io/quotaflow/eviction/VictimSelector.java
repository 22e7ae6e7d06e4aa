package io.quotaflow.eviction;

import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAccounting;
import io.quotaflow.tree.QuotaOptions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Victim selection for one over-used leaf group (SPEC 11, issue 28). Candidates are the group's own
 * bound, preemptible pods that count as used, are not already terminating and are not protected
 * ({@link ProtectedPods}: a protected namespace or a system priority), taken in units ({@link
 * VictimUnits}): a pod without a gang alone, the running members of a gang together. Units are
 * removed least important first ({@link VictimUnit#EVICTION_ORDER}: a gang already broken first,
 * then lowest priority, then most recently started) until used is within runtime in every
 * dimension; then, from the most important, every removed unit that still fits is added back. A
 * unit fits back when, in every dimension it asks for, used plus its request stays within runtime.
 * So a gang is evicted whole or not at all; without gangs the plan is the pod-by-pod one.
 *
 * <p>Invalid groups, the system group, the root, parent groups (reclaimed through their leaves)
 * and, unless {@link ProtectedPods#defaultGroupReclaimed()}, the default group get an empty plan; a
 * parent group that owns pods (docs/semantics.md section 18) gets victims among its own pods.
 * Terminating pods are counted as already gone, so that a group is not reclaimed twice for the same
 * excess.
 */
public final class VictimSelector {

  private VictimSelector() {}

  /**
   * @param group the group's current status
   * @param pods the pods charged to the group (others are ignored only if the caller filters)
   */
  public static VictimPlan select(
      GroupStatus group, Collection<QuotaPod> pods, QuotaOptions options) {
    final Set<String> dims = group.trackedDimensions();
    final ResourceList runtime = group.runtime();
    ResourceList used = group.used();
    final List<QuotaPod> running = new ArrayList<>();
    for (final QuotaPod pod : pods) {
      if (!PodAccounting.countsAsUsed(pod, options)) {
        continue;
      }
      if (pod.deletionTime().isPresent()) {
        used = used.minus(PodAccounting.chargedRequest(pod, dims, options));
      } else {
        running.add(pod);
      }
    }
    final List<String> over = overDimensions(dims, used, runtime);
    if (over.isEmpty() || !eligible(group, options)) {
      return new VictimPlan(group.name(), runtime, used, used, over, List.of());
    }
    final List<VictimUnit> candidates = VictimUnits.candidates(running, dims, options);
    candidates.sort(VictimUnit.EVICTION_ORDER);
    final List<VictimUnit> removed = new ArrayList<>();
    ResourceList after = used;
    for (final VictimUnit unit : candidates) {
      if (overDimensions(dims, after, runtime).isEmpty()) {
        break;
      }
      removed.add(unit);
      after = after.minus(unit.request());
    }
    final boolean[] addedBack = new boolean[removed.size()];
    for (int i = removed.size() - 1; i >= 0; i--) {
      final VictimUnit unit = removed.get(i);
      if (fits(unit.request(), after, runtime)) {
        after = after.plus(unit.request());
        addedBack[i] = true;
      }
    }
    final List<Victim> result = new ArrayList<>();
    for (int i = 0; i < removed.size(); i++) {
      if (!addedBack[i]) {
        removed.get(i).addVictims(result);
      }
    }
    return new VictimPlan(group.name(), runtime, used, after, over, result);
  }

  /**
   * A parent group is reclaimed through its leaves, and through its own pods when it owns pods. The
   * default group, where the cluster's own unclaimed services land, only when turned on.
   */
  private static boolean eligible(GroupStatus group, QuotaOptions options) {
    return group.valid()
        && (!group.parentGroup() || options.parentPods())
        && !SpecialGroups.ROOT.equals(group.name())
        && !SpecialGroups.SYSTEM.equals(group.name())
        && (!SpecialGroups.DEFAULT.equals(group.name())
            || options.protectedPods().defaultGroupReclaimed());
  }

  private static List<String> overDimensions(
      Set<String> dims, ResourceList used, ResourceList runtime) {
    final List<String> over = new ArrayList<>();
    for (final String dimension : dims) {
      if (used.get(dimension) > runtime.get(dimension)) {
        over.add(dimension);
      }
    }
    return over;
  }

  private static boolean fits(ResourceList request, ResourceList used, ResourceList runtime) {
    for (final String dimension : request.names()) {
      final long amount = request.get(dimension);
      if (amount > 0
          && ResourceList.saturatedAdd(used.get(dimension), amount) > runtime.get(dimension)) {
        return false;
      }
    }
    return true;
  }
}
