package io.quotaflow.eviction;

import static io.quotaflow.eviction.RandomGangGroups.OPTIONS;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.eviction.RandomGangGroups.Group;
import io.quotaflow.quota.GangKey;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.PodAccounting;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/** Reclaim by gang (issue 28): what any victim plan of any group keeps true. */
class GangReclaimProperties {

  @Property(tries = 500)
  void withoutGangsThePlanIsThePodByPodOneBitForBit(@ForAll("withoutGangs") Group group) {
    final VictimPlan plan = VictimSelector.select(group.status(), group.pods(), OPTIONS);

    assertThat(plan)
        .isEqualTo(PodByPodVictimSelector.select(group.status(), group.pods(), OPTIONS));
    Statistics.label("victims").collect(plan.victims().size() > 1 ? "several" : "one or none");
    Statistics.label("victims")
        .coverage(coverage -> coverage.check("several").percentage(p -> p > 10));
  }

  @Property(tries = 500)
  void aGangIsNeverSplitItsRunningMembersGoAllOrNone(@ForAll("withGangs") Group group) {
    final Set<PodRef> victims = victims(group);

    boolean gangEvicted = false;
    for (final List<QuotaPod> members : runningGangs(group).values()) {
      final long evicted = members.stream().filter(pod -> victims.contains(pod.ref())).count();
      assertThat(evicted).as("victims among %s", members).isIn(0L, (long) members.size());
      gangEvicted |= evicted > 1;
    }
    // The generator must give gangs of several members that are evicted, and some kept.
    Statistics.label("a gang of several members evicted").collect(gangEvicted);
    Statistics.label("a gang of several members evicted")
        .coverage(
            coverage -> {
              coverage.check(true).percentage(p -> p > 10);
              coverage.check(false).percentage(p -> p > 10);
            });
  }

  @Property(tries = 500)
  void reclaimNeverLeavesAWholeGangBelowItsMinMember(@ForAll("withGangs") Group group) {
    final Set<PodRef> victims = victims(group);

    for (final List<QuotaPod> members : runningGangs(group).values()) {
      final int minMember = members.get(0).gang().orElseThrow().minMember().orElse(0);
      final long left = members.stream().filter(pod -> !victims.contains(pod.ref())).count();
      if (members.size() >= minMember) {
        assertThat(left).as("members left of %s", members).matches(n -> n == 0 || n >= minMember);
      } else {
        assertThat(left)
            .as("a broken gang is evicted whole or left")
            .isIn(0L, (long) members.size());
      }
    }
  }

  @Property(tries = 500)
  void whenEvictingEveryCandidateSufficesThePlanBringsTheGroupWithinRuntime(
      @ForAll("withGangs") Group group) {
    final Set<String> dims = group.status().trackedDimensions();
    final ResourceList runtime = group.status().runtime();
    ResourceList used = group.status().used();
    ResourceList withoutCandidates = used;
    final Map<GangKey, List<QuotaPod>> gangs = runningGangs(group);
    for (final QuotaPod pod : group.pods()) {
      if (!PodAccounting.countsAsUsed(pod, OPTIONS)) {
        continue;
      }
      final ResourceList request = PodAccounting.chargedRequest(pod, dims, OPTIONS);
      if (pod.deletionTime().isPresent()) {
        used = used.minus(request);
        withoutCandidates = withoutCandidates.minus(request);
      } else if (GangKey.of(pod).map(gangs::get).orElse(List.of(pod)).stream()
          .allMatch(GangReclaimProperties::mayBeEvicted)) {
        withoutCandidates = withoutCandidates.minus(request);
      }
    }
    final VictimPlan plan = VictimSelector.select(group.status(), group.pods(), OPTIONS);
    ResourceList after = used;
    for (final Victim victim : plan.victims()) {
      after = after.minus(victim.request());
    }

    assertThat(plan.usedAfter()).isEqualTo(after);
    if (within(withoutCandidates, runtime, dims)) {
      assertThat(within(after, runtime, dims))
          .as("used after %s, runtime %s", after, runtime)
          .isTrue();
    }
  }

  @Property(tries = 500)
  void victimsAreOnlyPodsThatMayBeEvictedInGangsWhoseMembersAllMayBe(
      @ForAll("withGangs") Group group) {
    final Map<GangKey, List<QuotaPod>> gangs = runningGangs(group);
    final Map<PodRef, QuotaPod> pods = new HashMap<>();
    group.pods().forEach(pod -> pods.put(pod.ref(), pod));

    for (final Victim victim :
        VictimSelector.select(group.status(), group.pods(), OPTIONS).victims()) {
      final QuotaPod pod = pods.get(victim.pod());
      assertThat(pod.deletionTime()).isEmpty();
      assertThat(PodAccounting.countsAsUsed(pod, OPTIONS)).isTrue();
      assertThat(GangKey.of(pod).map(gangs::get).orElse(List.of(pod)))
          .allMatch(GangReclaimProperties::mayBeEvicted);
      assertThat(victim.gang().map(EvictedGang::members))
          .isEqualTo(GangKey.of(pod).map(key -> gangs.get(key).size()));
    }
  }

  private static boolean mayBeEvicted(QuotaPod pod) {
    return pod.preemptible() && !OPTIONS.protectedPods().protects(pod);
  }

  private static boolean within(ResourceList used, ResourceList runtime, Set<String> dims) {
    return dims.stream().allMatch(dim -> used.get(dim) <= runtime.get(dim));
  }

  private static Set<PodRef> victims(Group group) {
    return VictimSelector.select(group.status(), group.pods(), OPTIONS).victims().stream()
        .map(Victim::pod)
        .collect(Collectors.toSet());
  }

  /** Each gang's members that count as used and are not terminating. */
  private static Map<GangKey, List<QuotaPod>> runningGangs(Group group) {
    final Map<GangKey, List<QuotaPod>> gangs = new HashMap<>();
    for (final QuotaPod pod : group.pods()) {
      if (PodAccounting.countsAsUsed(pod, OPTIONS) && pod.deletionTime().isEmpty()) {
        GangKey.of(pod)
            .ifPresent(key -> gangs.computeIfAbsent(key, k -> new ArrayList<>()).add(pod));
      }
    }
    return gangs;
  }

  @Provide
  Arbitrary<Group> withoutGangs() {
    return Arbitraries.randomValue(random -> RandomGangGroups.group(random, false));
  }

  @Provide
  Arbitrary<Group> withGangs() {
    return Arbitraries.randomValue(random -> RandomGangGroups.group(random, true));
  }
}
