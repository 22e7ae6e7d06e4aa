package io.quotaflow.engine.history;

import io.quotaflow.engine.TopologyNames;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.history.GroupLevels;
import io.quotaflow.history.HistorySeries;
import io.quotaflow.history.HistoryStep;
import io.quotaflow.history.HistoryTiers;
import io.quotaflow.history.HistoryTiers.Tier;
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
import java.util.Optional;
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
 * A group's history from the engine's two group-history stores (section 23): the tier that answers
 * a period is picked by its start ({@link HistoryTiers#tierFor}), then one fetch of its windows in
 * the period, and one backward fetch for the levels in force at its start (in the coarse tier when
 * the fine one keeps no change before it). Answers for the clusters this instance holds, as {@code
 * RuntimeQueries} does.
 */
public final class HistoryQueries {

  private final ReadOnlyWindowStore<GroupId, GroupHistoryWindow> fine;
  private final ReadOnlyWindowStore<GroupId, GroupHistoryWindow> coarse;
  private final HistoryTiers tiers;

  /**
   * @param fine the store of the fine tier
   * @param coarse the store of the coarse tier
   * @param tiers their steps and retentions
   */
  public HistoryQueries(
      ReadOnlyWindowStore<GroupId, GroupHistoryWindow> fine,
      ReadOnlyWindowStore<GroupId, GroupHistoryWindow> coarse,
      HistoryTiers tiers) {
    this.fine = Objects.requireNonNull(fine, "fine");
    this.coarse = Objects.requireNonNull(coarse, "coarse");
    this.tiers = Objects.requireNonNull(tiers, "tiers");
  }

  /**
   * Queries over the local stores of a running application.
   *
   * @throws org.apache.kafka.streams.errors.InvalidStateStoreException while they are not queryable
   */
  public static HistoryQueries of(KafkaStreams streams, HistoryTiers tiers) {
    return new HistoryQueries(
        store(streams, tiers.fineStep()), store(streams, tiers.coarseStep()), tiers);
  }

  private static ReadOnlyWindowStore<GroupId, GroupHistoryWindow> store(
      KafkaStreams streams, Duration step) {
    return streams.store(
        StoreQueryParameters.fromNameAndType(
            TopologyNames.historyStore(step),
            QueryableStoreTypes.<GroupId, GroupHistoryWindow>windowStore()));
  }

  /** The tiers the history is kept in. */
  public HistoryTiers tiers() {
    return tiers;
  }

  /**
   * {@code group}'s steps of {@code queryStep} over {@code [from, to)}, none after {@code now}.
   *
   * @throws IllegalArgumentException when the step is not a multiple of the step of the tier that
   *     answers, or {@code from} not a multiple of the step ({@link HistoryTiers#forSteps})
   */
  public List<HistoryStep> steps(
      String cluster, String group, Instant from, Instant to, Duration queryStep, Instant now) {
    return steps(tiers.forSteps(from, queryStep, now), cluster, group, from, to, queryStep, now);
  }

  /** The steps as {@code tier} alone answers them (a test compares the two tiers). */
  List<HistoryStep> steps(
      Tier tier,
      String cluster,
      String group,
      Instant from,
      Instant to,
      Duration queryStep,
      Instant now) {
    final GroupId key = new GroupId(cluster, group);
    final List<HistoryWindow> windows = new ArrayList<>();
    if (to.isAfter(from)) {
      try (WindowStoreIterator<GroupHistoryWindow> kept =
          store(tier).fetch(key, from, to.minusMillis(1))) {
        while (kept.hasNext()) {
          final KeyValue<Long, GroupHistoryWindow> window = kept.next();
          windows.add(HistoryRecords.window(Instant.ofEpochMilli(window.key), window.value));
        }
      }
    }
    return HistorySeries.steps(
        from, to, queryStep, tiers.step(tier), inForceAt(tier, key, from), windows, now);
  }

  /**
   * Each group's totals over {@code [from, to)} (multiples of the step of the tier that answers),
   * cut short at {@code now}: the {@code groups} named, and every other group of {@code cluster}
   * with a window kept in the period (a group deleted since). One scan of the period's windows,
   * then one backward lookup per group for the levels in force at {@code from}.
   *
   * @throws IllegalArgumentException when the period's ends are not multiples of that step
   */
  public Map<String, HistoryStep> totals(
      String cluster, Collection<String> groups, Instant from, Instant to, Instant now) {
    return totals(tiers.forTotals(from, to, now), cluster, groups, from, to, now);
  }

  /** The totals as {@code tier} alone answers them (a test compares the two tiers). */
  Map<String, HistoryStep> totals(
      Tier tier, String cluster, Collection<String> groups, Instant from, Instant to, Instant now) {
    final Map<String, List<HistoryWindow>> byGroup = new TreeMap<>();
    groups.forEach(group -> byGroup.put(group, new ArrayList<>()));
    try (KeyValueIterator<Windowed<GroupId>, GroupHistoryWindow> all =
        store(tier).fetchAll(from, to.minusMillis(1))) {
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
                  from,
                  to,
                  tiers.step(tier),
                  inForceAt(tier, new GroupId(cluster, group), from),
                  windows,
                  now));
        });
    return totals;
  }

  /** Whether any window of {@code group} is kept (the coarse tier has one for each fine one). */
  public boolean keepsAny(String cluster, String group, Instant now) {
    try (WindowStoreIterator<GroupHistoryWindow> kept =
        coarse.backwardFetch(new GroupId(cluster, group), now.minus(tiers.retention()), now)) {
      return kept.hasNext();
    }
  }

  private ReadOnlyWindowStore<GroupId, GroupHistoryWindow> store(Tier tier) {
    return tier == Tier.FINE ? fine : coarse;
  }

  /**
   * The levels in force at {@code at}: of the last change {@code tier} keeps before it; for the
   * fine tier, past its retention, of the last the coarse tier keeps (exact, as {@link
   * HistoryTiers#fineSince} says); none when no change is kept.
   */
  private GroupLevels inForceAt(Tier tier, GroupId key, Instant at) {
    return LevelsAt.in(store(tier), key, at, at.minus(tiers.kept(tier)))
        .or(
            () ->
                tier == Tier.FINE
                    ? LevelsAt.in(coarse, key, at, at.minus(tiers.retention()))
                    : Optional.empty())
        .orElse(GroupLevels.NONE);
  }
}
