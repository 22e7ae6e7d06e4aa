package io.quotaflow.engine.history;

import io.quotaflow.engine.store.GroupId;
import io.quotaflow.history.GroupLevels;
import io.quotaflow.history.HistoryWindow;
import io.quotaflow.schemas.internal.GroupHistoryWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/**
 * Keeps each group's history as the engine writes its runtime records (docs/semantics.md section
 * 23): one record per group per step window in which its levels changed, updated in place by
 * further changes in the same window. Quiet groups cost nothing.
 */
public final class HistoryKeeper {

  private final WindowStore<GroupId, GroupHistoryWindow> store;
  private final Duration step;
  // Where to look for the levels in force at an instant older than every record kept here: the
  // coarse tier, for the fine one (section 23).
  private final BiFunction<GroupId, Instant, Optional<GroupLevels>> earlier;

  public HistoryKeeper(WindowStore<GroupId, GroupHistoryWindow> store, Duration step) {
    this(store, step, (group, at) -> Optional.empty());
  }

  /**
   * @param earlier the levels in force at an instant before every record kept here
   */
  public HistoryKeeper(
      WindowStore<GroupId, GroupHistoryWindow> store,
      Duration step,
      BiFunction<GroupId, Instant, Optional<GroupLevels>> earlier) {
    this.store = Objects.requireNonNull(store, "store");
    this.step = Objects.requireNonNull(step, "step");
    this.earlier = Objects.requireNonNull(earlier, "earlier");
  }

  /** The levels this store says were in force at {@code at}; empty when it keeps none before. */
  public Optional<GroupLevels> levelsAt(GroupId group, Instant at) {
    return LevelsAt.in(store, group, at, Instant.EPOCH);
  }

  /**
   * Notes that {@code group}'s levels are {@code after} from {@code at} on.
   *
   * @param before the levels in force until now (its last runtime record), read only when the
   *     window has no record yet
   */
  public void changed(GroupId group, Instant at, Supplier<GroupLevels> before, GroupLevels after) {
    final Instant start = HistoryWindow.windowOf(at, step);
    final GroupHistoryWindow existing = store.fetch(group, start.toEpochMilli());
    final HistoryWindow next;
    if (existing != null) {
      final HistoryWindow window = HistoryRecords.window(start, existing);
      if (window.last().equals(after)) {
        return;
      }
      next = window.changed(at, after);
    } else {
      final GroupLevels previous = before.get();
      if (previous.equals(after)) {
        return;
      }
      next = HistoryWindow.opened(at, step, previous, after);
    }
    store.put(group, HistoryRecords.record(next), start.toEpochMilli());
  }

  /**
   * Counts an eviction of one of {@code group}'s pods, commanded at {@code at} for {@code reason}.
   *
   * @param current the group's levels now (unchanged by the command), read only when the window has
   *     no record yet
   */
  public void evicted(GroupId group, Instant at, Supplier<GroupLevels> current, String reason) {
    final Instant start = HistoryWindow.windowOf(at, step);
    final HistoryWindow window = windowAt(group, at, start, current);
    store.put(group, HistoryRecords.record(window.withEviction(reason)), start.toEpochMilli());
  }

  /**
   * Counts a pod of {@code group} turned away at {@code at} for {@code reason}. A denial is read
   * after its decision, late after an outage, so its window may be past: a window without a record
   * is opened with the levels in force then, as a query would carry them (those of the last record
   * before it, here or, past this store's retention, in {@code earlier}; the current ones when none
   * is kept after it either, since nothing changed since; none when the only records are later
   * ones).
   *
   * @param current the group's levels now, read only when needed
   */
  public void denied(GroupId group, Instant at, Supplier<GroupLevels> current, String reason) {
    final Instant start = HistoryWindow.windowOf(at, step);
    final HistoryWindow window = windowAt(group, at, start, () -> inForceAt(group, start, current));
    store.put(group, HistoryRecords.record(window.withDenial(reason)), start.toEpochMilli());
  }

  /** The window starting at {@code start}: its record, or one opened at {@code at} unchanged. */
  private HistoryWindow windowAt(
      GroupId group, Instant at, Instant start, Supplier<GroupLevels> levels) {
    final GroupHistoryWindow existing = store.fetch(group, start.toEpochMilli());
    if (existing != null) {
      return HistoryRecords.window(start, existing);
    }
    final GroupLevels unchanged = levels.get();
    return HistoryWindow.opened(at, step, unchanged, unchanged);
  }

  private GroupLevels inForceAt(GroupId group, Instant start, Supplier<GroupLevels> current) {
    final Optional<GroupLevels> kept = levelsAt(group, start).or(() -> earlier.apply(group, start));
    if (kept.isPresent()) {
      return kept.get();
    }
    try (WindowStoreIterator<GroupHistoryWindow> after =
        store.fetch(group, start.toEpochMilli() + 1, Long.MAX_VALUE)) {
      return after.hasNext() ? GroupLevels.NONE : current.get();
    }
  }
}
