package io.quotaflow.simulate;

import io.quotaflow.quota.GangSummary;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.tree.GangSummaries;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.TreeSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The gangs of each group of a computed tree (docs/semantics.md 21.4), for the reports: each pod
 * taken to the group the snapshot charged it to. Only groups with a gang are keys, so that a tree
 * without gangs reports exactly as before.
 */
public final class ReportGangs {

  private ReportGangs() {}

  /** The gangs of {@code snapshot}'s groups, from {@code pods}, its inputs' pods. */
  public static Map<String, List<GangSummary>> of(
      TreeSnapshot snapshot, List<QuotaPod> pods, QuotaOptions options) {
    final Map<PodRef, QuotaPod> inGangs = new HashMap<>();
    for (final QuotaPod pod : pods) {
      if (pod.gang().isPresent()) {
        inGangs.put(pod.ref(), pod);
      }
    }
    if (inGangs.isEmpty()) {
      return Map.of();
    }
    final Map<String, List<QuotaPod>> byGroup = new HashMap<>();
    for (final PodAssignment assignment : snapshot.pods()) {
      final QuotaPod pod = inGangs.get(assignment.ref());
      if (pod != null) {
        byGroup.computeIfAbsent(assignment.group(), g -> new ArrayList<>()).add(pod);
      }
    }
    final Map<String, List<GangSummary>> gangs = new HashMap<>();
    byGroup.forEach(
        (group, members) -> {
          final List<GangSummary> summaries = GangSummaries.of(members, options);
          if (!summaries.isEmpty()) {
            gangs.put(group, summaries);
          }
        });
    return Map.copyOf(gangs);
  }
}
