package io.quotaflow.engine.history;

import io.quotaflow.engine.store.GroupId;
import io.quotaflow.history.GroupLevels;
import io.quotaflow.history.HistoryWindow;
import io.quotaflow.schemas.internal.GroupHistoryWindow;
import java.time.Instant;
import java.util.Optional;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/**
 * The levels a history store says were in force at an instant: those of the last change it keeps
 * before it. A window that starts before the instant but changed at or after it (a coarse window
 * holding the instant) is passed over: its last levels came later.
 */
final class LevelsAt {

  private LevelsAt() {}

  /**
   * {@code group}'s levels at {@code at} from the windows of {@code store} starting in {@code
   * [since, at)}; empty when none of them changed before {@code at}.
   */
  static Optional<GroupLevels> in(
      ReadOnlyWindowStore<GroupId, GroupHistoryWindow> store,
      GroupId group,
      Instant at,
      Instant since) {
    if (!at.isAfter(since)) {
      return Optional.empty();
    }
    try (WindowStoreIterator<GroupHistoryWindow> before =
        store.backwardFetch(group, since, at.minusMillis(1))) {
      while (before.hasNext()) {
        final KeyValue<Long, GroupHistoryWindow> kept = before.next();
        final HistoryWindow window =
            HistoryRecords.window(Instant.ofEpochMilli(kept.key), kept.value);
        if (window.lastChange().isBefore(at)) {
          return Optional.of(window.last());
        }
      }
    }
    return Optional.empty();
  }
}
