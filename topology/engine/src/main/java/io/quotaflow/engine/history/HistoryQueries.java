package io.quotaflow.engine.history;

import io.quotaflow.engine.TopologyNames;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.history.GroupLevels;
import io.quotaflow.history.HistorySeries;
import io.quotaflow.history.HistoryStep;
import io.quotaflow.history.HistoryWindow;
import io.quotaflow.schemas.internal.GroupHistoryWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/**
 * A group's history from the engine's group-history store (section 23): one fetch of the windows in
 * the period, and one backward fetch for the levels in force at its start. Answers for the clusters
 * this instance holds, as {@code RuntimeQueries} does.
 */
public final class HistoryQueries {

  private final ReadOnlyWindowStore<GroupId, GroupHistoryWindow> store;
  private final Duration step;
  private final Duration retention;

  /**
   * @param store the group-history store
   * @param step the step it keeps
   * @param retention how long it keeps each window
   */
  public HistoryQueries(
      ReadOnlyWindowStore<GroupId, GroupHistoryWindow> store, Duration step, Duration retention) {
    this.store = Objects.requireNonNull(store, "store");
    this.step = Objects.requireNonNull(step, "step");
    this.retention = Objects.requireNonNull(retention, "retention");
  }

  /**
   * Queries over the local store of a running application.
   *
   * @throws org.apache.kafka.streams.errors.InvalidStateStoreException while it is not queryable
   */
  public static HistoryQueries of(KafkaStreams streams, Duration step, Duration retention) {
    return new HistoryQueries(
        streams.store(
            StoreQueryParameters.fromNameAndType(
                TopologyNames.historyStore(step),
                QueryableStoreTypes.<GroupId, GroupHistoryWindow>windowStore())),
        step,
        retention);
  }

  /** The step the history is kept at. */
  public Duration step() {
    return step;
  }

  /** How long it is kept. */
  public Duration retention() {
    return retention;
  }

  /**
   * {@code group}'s steps of {@code queryStep} over {@code [from, to)}, none after {@code now}.
   *
   * @throws IllegalArgumentException when the step is not a multiple of the kept one or {@code
   *     from} not a multiple of the step (see {@link HistorySeries#steps})
   */
  public List<HistoryStep> steps(
      String cluster, String group, Instant from, Instant to, Duration queryStep, Instant now) {
    final GroupId key = new GroupId(cluster, group);
    final List<HistoryWindow> windows = new ArrayList<>();
    if (to.isAfter(from)) {
      try (WindowStoreIterator<GroupHistoryWindow> kept =
          store.fetch(key, from, to.minusMillis(1))) {
        while (kept.hasNext()) {
          final KeyValue<Long, GroupHistoryWindow> window = kept.next();
          windows.add(HistoryRecords.window(Instant.ofEpochMilli(window.key), window.value));
        }
      }
    }
    return HistorySeries.steps(from, to, queryStep, step, inForceAt(key, from), windows, now);
  }

  /**
   * Each group's totals over {@code [from, to)} (multiples of the kept step), cut short at {@code
   * now}: the {@code groups} named, and every other group of {@code cluster} with a window kept in
   * the period (a group deleted since). One scan of the period's windows, then one backward lookup
   * per group for the levels in force at {@code from}.
   */
  public Map<String, HistoryStep> totals(
      String cluster, Collection<String> groups, Instant from, Instant to, Instant now) {
    final Map<String, List<HistoryWindow>> byGroup = new TreeMap<>();
    groups.forEach(group -> byGroup.put(group, new ArrayList<>()));
    try (KeyValueIterator<Windowed<GroupId>, GroupHistoryWindow> all =
        store.fetchAll(from, to.minusMillis(1))) {
      while (all.hasNext()) {
        final KeyValue<Windowed<GroupId>, GroupHistoryWindow> entry = all.next();
        final GroupId key = entry.key.key();
        if (key.cluster().equals(cluster)) {
          byGroup
              .computeIfAbsent(key.name(), name -> new ArrayList<>())
              .add(
                  HistoryRecords.window(
                      Instant.ofEpochMilli(entry.key.window().start()), entry.value));
        }
      }
    }
    final Map<String, HistoryStep> totals = new TreeMap<>();
    byGroup.forEach(
        (group, windows) -> {
          windows.sort(Comparator.comparing(HistoryWindow::start));
          totals.put(
              group,
              HistorySeries.total(
                  from, to, step, inForceAt(new GroupId(cluster, group), from), windows, now));
        });
    return totals;
  }

  /** Whether any window of {@code group} is kept. */
  public boolean keepsAny(String cluster, String group, Instant now) {
    try (WindowStoreIterator<GroupHistoryWindow> kept =
        store.backwardFetch(new GroupId(cluster, group), now.minus(retention), now)) {
      return kept.hasNext();
    }
  }

  /** The levels of the last window kept before {@code at}; none when no window is kept. */
  private GroupLevels inForceAt(GroupId key, Instant at) {
    try (WindowStoreIterator<GroupHistoryWindow> before =
        store.backwardFetch(key, at.minus(retention), at.minusMillis(1))) {
      return before.hasNext()
          ? HistoryRecords.window(Instant.ofEpochMilli(before.peekNextKey()), before.next().value)
              .last()
          : GroupLevels.NONE;
    }
  }
}
