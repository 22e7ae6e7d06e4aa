package io.quotaflow.engine.history;

import io.quotaflow.engine.store.GroupId;
import io.quotaflow.history.GroupLevels;
import io.quotaflow.history.HistoryWindow;
import io.quotaflow.schemas.internal.GroupHistoryWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.kafka.streams.KeyValue;
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

  public HistoryKeeper(WindowStore<GroupId, GroupHistoryWindow> store, Duration step) {
    this.store = Objects.requireNonNull(store, "store");
    this.step = Objects.requireNonNull(step, "step");
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
   * before it; the current ones when none is kept after it either, since nothing changed since;
   * none when the only records are later ones).
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
    final long window = start.toEpochMilli();
    try (WindowStoreIterator<GroupHistoryWindow> before =
        store.backwardFetch(group, 0, window - 1)) {
      if (before.hasNext()) {
        final KeyValue<Long, GroupHistoryWindow> last = before.next();
        return HistoryRecords.window(Instant.ofEpochMilli(last.key), last.value).last();
      }
    }
    try (WindowStoreIterator<GroupHistoryWindow> after =
        store.fetch(group, window + 1, Long.MAX_VALUE)) {
      return after.hasNext() ? GroupLevels.NONE : current.get();
    }
  }
}
