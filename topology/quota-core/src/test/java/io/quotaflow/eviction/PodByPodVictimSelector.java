package io.quotaflow.eviction;

import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAccounting;
import io.quotaflow.tree.QuotaOptions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * The reference: {@link VictimSelector} as it was before gangs (main at e73a200), pod by pod, kept
 * unchanged so that the properties can check that, without gangs, the unit-by-unit choice is the
 * same bit for bit.
 */
final class PodByPodVictimSelector {

  static final Comparator<QuotaPod> EVICTION_ORDER =
      Comparator.comparingInt(QuotaPod::priority)
          .thenComparing(
              (QuotaPod pod) -> pod.startTime().orElse(Instant.MAX), Comparator.reverseOrder())
          .thenComparing(QuotaPod::creationTime, Comparator.reverseOrder())
          .thenComparing(QuotaPod::ref);

  private PodByPodVictimSelector() {}

  static VictimPlan select(GroupStatus group, Collection<QuotaPod> pods, QuotaOptions options) {
    final Set<String> dims = group.trackedDimensions();
    final ResourceList runtime = group.runtime();
    ResourceList used = group.used();
    final List<QuotaPod> candidates = new ArrayList<>();
    for (final QuotaPod pod : pods) {
      if (!PodAccounting.countsAsUsed(pod, options)) {
        continue;
      }
      if (pod.deletionTime().isPresent()) {
        used = used.minus(PodAccounting.chargedRequest(pod, dims, options));
      } else if (pod.preemptible() && !options.protectedPods().protects(pod)) {
        candidates.add(pod);
      }
    }
    final List<String> over = overDimensions(dims, used, runtime);
    if (over.isEmpty() || !eligible(group, options)) {
      return new VictimPlan(group.name(), runtime, used, used, over, List.of());
    }
    candidates.sort(EVICTION_ORDER);
    final List<QuotaPod> removed = new ArrayList<>();
    ResourceList after = used;
    for (final QuotaPod pod : candidates) {
      if (overDimensions(dims, after, runtime).isEmpty()) {
        break;
      }
      removed.add(pod);
      after = after.minus(PodAccounting.chargedRequest(pod, dims, options));
    }
    final List<QuotaPod> victims = new ArrayList<>(removed);
    for (int i = removed.size() - 1; i >= 0; i--) {
      final QuotaPod pod = removed.get(i);
      final ResourceList request = PodAccounting.chargedRequest(pod, dims, options);
      if (fits(request, after, runtime)) {
        after = after.plus(request);
        victims.remove(pod);
      }
    }
    final List<Victim> result = new ArrayList<>();
    for (final QuotaPod pod : victims) {
      result.add(
          new Victim(
              pod.ref(),
              pod.uid(),
              pod.priority(),
              pod.startTime(),
              PodAccounting.chargedRequest(pod, dims, options)));
    }
    return new VictimPlan(group.name(), runtime, used, after, over, result);
  }

  private static boolean eligible(GroupStatus group, QuotaOptions options) {
    return group.valid()
        && (!group.parentGroup() || options.parentPods())
        && !SpecialGroups.ROOT.equals(group.name())
        && !SpecialGroups.SYSTEM.equals(group.name());
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
