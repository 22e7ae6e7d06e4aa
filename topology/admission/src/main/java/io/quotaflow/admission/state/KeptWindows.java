package io.quotaflow.admission.state;

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
import java.util.Optional;
import java.util.TreeMap;

/**
 * A history kept in memory at one step, answered as the engine's store answers it ({@code
 * HistoryQueries}): for {@link SnapshotClusterState}'s clusters, in tests and benches, and as one
 * tier of {@link TieredWindows}.
 */
public final class KeptWindows implements GroupHistories {

  private final Duration step;
  private final Map<String, TreeMap<Instant, HistoryWindow>> byGroup = new HashMap<>();
  // Where the levels in force before every window kept here are read: the coarse tier, for the
  // fine one (section 23); null for none.
  private final KeptWindows earlier;

  public KeptWindows(Duration step) {
    this(step, null);
  }

  /**
   * @param earlier the windows that tell the levels in force before every window kept here
   */
  public KeptWindows(Duration step, KeptWindows earlier) {
    this.step = step;
    this.earlier = earlier;
  }

  /** Keeps {@code window} of {@code group}. */
  public KeptWindows keep(String group, HistoryWindow window) {
    byGroup.computeIfAbsent(group, g -> new TreeMap<>()).put(window.start(), window);
    return this;
  }

  @Override
  public Duration step(Instant from, Instant now) {
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
    return levelsAt(group, at)
        .or(() -> earlier == null ? Optional.empty() : earlier.levelsAt(group, at))
        .orElse(GroupLevels.NONE);
  }

  /** The levels of the last change kept before {@code at} (as the engine's {@code LevelsAt}). */
  private Optional<GroupLevels> levelsAt(String group, Instant at) {
    for (final HistoryWindow window :
        byGroup.getOrDefault(group, new TreeMap<>()).headMap(at, false).descendingMap().values()) {
      if (window.lastChange().isBefore(at)) {
        return Optional.of(window.last());
      }
    }
    return Optional.empty();
  }

  private List<HistoryWindow> windows(String group, Instant from, Instant to) {
    return new ArrayList<>(
        byGroup.getOrDefault(group, new TreeMap<>()).subMap(from, true, to, false).values());
  }
}
