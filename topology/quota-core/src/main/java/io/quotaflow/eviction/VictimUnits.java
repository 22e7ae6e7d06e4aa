package io.quotaflow.eviction;

import io.quotaflow.quota.GangKey;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.PodAccounting;
import io.quotaflow.tree.QuotaOptions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Groups a group's running pods into the units reclaim may evict (issue 28): each pod without a
 * gang is one; the running members of one gang together are one. A gang with a member that may not
 * be evicted (non-preemptible or protected) is no candidate at all: evicting the others would break
 * it and free less than it seems.
 */
final class VictimUnits {

  /** Least important first: lowest priority, then most recently started, then newest. */
  static final Comparator<QuotaPod> MEMBER_ORDER = VictimUnits::compareMembers;

  private static int compareMembers(QuotaPod a, QuotaPod b) {
    int order = Integer.compare(a.priority(), b.priority());
    if (order == 0) {
      order = VictimUnit.startOf(b).compareTo(VictimUnit.startOf(a));
    }
    if (order == 0) {
      order = b.creationTime().compareTo(a.creationTime());
    }
    if (order == 0) {
      order = a.ref().compareTo(b.ref());
    }
    return order;
  }

  private VictimUnits() {}

  /**
   * The candidate units among {@code running}: the group's pods that count as used and are not
   * terminating.
   */
  static List<VictimUnit> candidates(
      List<QuotaPod> running, Set<String> dims, QuotaOptions options) {
    final List<VictimUnit> units = new ArrayList<>();
    final Map<GangKey, List<QuotaPod>> gangs = new HashMap<>();
    for (final QuotaPod pod : running) {
      final Optional<GangKey> gang = GangKey.of(pod);
      if (gang.isPresent()) {
        gangs.computeIfAbsent(gang.get(), key -> new ArrayList<>()).add(pod);
      } else if (evictable(pod, options)) {
        units.add(VictimUnit.ofPod(pod, PodAccounting.chargedRequest(pod, dims, options)));
      }
    }
    for (final Map.Entry<GangKey, List<QuotaPod>> gang : gangs.entrySet()) {
      final List<QuotaPod> members = gang.getValue();
      if (members.stream().allMatch(member -> evictable(member, options))) {
        units.add(ofGang(gang.getKey(), members, dims, options));
      }
    }
    return units;
  }

  private static boolean evictable(QuotaPod pod, QuotaOptions options) {
    return pod.preemptible() && !options.protectedPods().protects(pod);
  }

  /**
   * A gang's unit: as important as its most important member, started when its last member started,
   * broken when fewer members run than its minMember (the largest any member declares).
   */
  private static VictimUnit ofGang(
      GangKey key, List<QuotaPod> members, Set<String> dims, QuotaOptions options) {
    members.sort(MEMBER_ORDER);
    final List<ResourceList> requests = new ArrayList<>(members.size());
    ResourceList total = ResourceList.empty();
    int priority = Integer.MIN_VALUE;
    Instant started = Instant.MIN;
    Instant created = Instant.MIN;
    int minMember = 0;
    for (final QuotaPod member : members) {
      final ResourceList request = PodAccounting.chargedRequest(member, dims, options);
      requests.add(request);
      total = total.plus(request);
      priority = Math.max(priority, member.priority());
      started = max(started, VictimUnit.startOf(member));
      created = max(created, member.creationTime());
      minMember = Math.max(minMember, member.gang().orElseThrow().minMember().orElse(0));
    }
    return new VictimUnit(
        members,
        requests,
        total,
        Optional.of(key),
        members.size() < minMember,
        priority,
        started,
        created,
        new PodRef(key.namespace(), key.name()));
  }

  private static Instant max(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }
}
