package io.quotaflow.tree;

import io.quotaflow.quota.GangKey;
import io.quotaflow.quota.GangSummary;
import io.quotaflow.quota.QuotaPod;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * The gangs of one group's pods (docs/semantics.md 21.4), by key: what {@code simulate}, the query
 * API and the web view show. Pure: the same pods give the same list, whatever their order.
 */
public final class GangSummaries {

  private GangSummaries() {}

  /**
   * One summary per gang among {@code pods} (the pods charged to one group), ordered by namespace
   * and name; empty when no pod belongs to a gang. Finished pods are no members: they hold nothing
   * and will not run again.
   */
  public static List<GangSummary> of(Collection<QuotaPod> pods, QuotaOptions options) {
    final Map<GangKey, List<QuotaPod>> gangs = new TreeMap<>();
    for (final QuotaPod pod : pods) {
      final Optional<GangKey> key = GangKey.of(pod);
      if (key.isPresent() && !pod.phase().isFinished()) {
        gangs.computeIfAbsent(key.get(), k -> new ArrayList<>()).add(pod);
      }
    }
    final List<GangSummary> summaries = new ArrayList<>(gangs.size());
    gangs.forEach((key, members) -> summaries.add(summary(key, members, options)));
    return summaries;
  }

  private static GangSummary summary(GangKey key, List<QuotaPod> members, QuotaOptions options) {
    int running = 0;
    int pending = 0;
    int terminating = 0;
    int minMember = 0;
    for (final QuotaPod member : members) {
      if (member.deletionTime().isPresent()) {
        terminating++;
      } else if (PodAccounting.countsAsUsed(member, options)) {
        running++;
      } else {
        pending++;
      }
      // As reclaim reads it (section 21.3): the largest any member declares.
      minMember = Math.max(minMember, member.gang().orElseThrow().minMember().orElse(0));
    }
    final OptionalInt min = minMember > 0 ? OptionalInt.of(minMember) : OptionalInt.empty();
    // Members may name one gang through different conventions: the first by name decides.
    final String convention =
        members.stream()
            .min(Comparator.comparing(QuotaPod::ref))
            .orElseThrow()
            .gang()
            .orElseThrow()
            .convention();
    return new GangSummary(
        key,
        convention,
        min,
        members.size(),
        running,
        pending,
        terminating,
        GangSummary.stateOf(min, running, pending));
  }
}
