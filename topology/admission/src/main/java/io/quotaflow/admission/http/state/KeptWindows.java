package io.quotaflow.admission.http.state;

import io.quotaflow.history.GroupLevels;
import io.quotaflow.history.HistorySeries;
import io.quotaflow.history.HistoryStep;
import io.quotaflow.history.HistoryWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A history kept in memory, answered as the engine's store answers it ({@code HistoryQueries}): for
 * {@link SnapshotClusterState}'s clusters, in tests and benches.
 */
public final class KeptWindows implements GroupHistories {

  private final Duration step;
  private final Map<String, TreeMap<Instant, HistoryWindow>> byGroup = new HashMap<>();

  public KeptWindows(Duration step) {
    this.step = step;
  }

  /** Keeps {@code window} of {@code group}. */
  public KeptWindows keep(String group, HistoryWindow window) {
    byGroup.computeIfAbsent(group, g -> new TreeMap<>()).put(window.start(), window);
    return this;
  }

  @Override
  public Duration step() {
    return step;
  }

  @Override
  public Duration retention() {
    return Duration.ofDays(14);
  }

  @Override
  public List<HistoryStep> steps(
      String group, Instant from, Instant to, Duration queryStep, Instant now) {
    return HistorySeries.steps(
        from, to, queryStep, step, inForce(group, from), windows(group, from, to), now);
  }

  @Override
  public boolean keepsAny(String group, Instant now) {
    return byGroup.containsKey(group);
  }

  @Override
  public Map<String, HistoryStep> totals(
      Collection<String> groups, Instant from, Instant to, Instant now) {
    final Map<String, HistoryStep> totals = new TreeMap<>();
    final List<String> names = new ArrayList<>(groups);
    byGroup.forEach(
        (group, windows) -> {
          if (!windows.subMap(from, true, to, false).isEmpty() && !names.contains(group)) {
            names.add(group);
          }
        });
    for (final String group : names) {
      totals.put(
          group,
          HistorySeries.total(from, to, step, inForce(group, from), windows(group, from, to), now));
    }
    return totals;
  }

  private GroupLevels inForce(String group, Instant at) {
    final var before = byGroup.getOrDefault(group, new TreeMap<>()).headMap(at, false).lastEntry();
    return before == null ? GroupLevels.NONE : before.getValue().last();
  }

  private List<HistoryWindow> windows(String group, Instant from, Instant to) {
    return new ArrayList<>(
        byGroup.getOrDefault(group, new TreeMap<>()).subMap(from, true, to, false).values());
  }
}
