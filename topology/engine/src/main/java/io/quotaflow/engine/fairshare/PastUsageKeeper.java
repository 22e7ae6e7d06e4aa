package io.quotaflow.engine.fairshare;

import io.quotaflow.engine.history.HistoryRecords;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.fairshare.DecayedBorrowing;
import io.quotaflow.fairshare.HalfLife;
import io.quotaflow.history.GroupLevels;
import io.quotaflow.history.HistoryWindow;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.schemas.internal.FairShareMemory;
import io.quotaflow.schemas.internal.GroupHistoryWindow;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/**
 * Keeps each group's decayed borrowing (docs/semantics.md section 24) in the changelogged
 * fairshare-memory store, folding in the history's step windows as they close. A memory kept at
 * another step or half-life, or not folded for longer than the history keeps its windows, starts
 * afresh; so does a group's first, at the last closed window.
 */
public final class PastUsageKeeper {

  private final KeyValueStore<GroupId, FairShareMemory> memory;
  private final WindowStore<GroupId, GroupHistoryWindow> history;
  private final HalfLife halfLife;
  private final Duration step;
  private final Duration retention;

  public PastUsageKeeper(
      KeyValueStore<GroupId, FairShareMemory> memory,
      WindowStore<GroupId, GroupHistoryWindow> history,
      HalfLife halfLife,
      Duration retention) {
    this.memory = Objects.requireNonNull(memory, "memory");
    this.history = Objects.requireNonNull(history, "history");
    this.halfLife = Objects.requireNonNull(halfLife, "halfLife");
    this.step = Duration.ofMillis(halfLife.stepMillis());
    this.retention = Objects.requireNonNull(retention, "retention");
  }

  /**
   * Folds every window of {@code group} closed by {@code now} and returns its decayed average
   * borrowed. A memory that has decayed to nothing is deleted.
   *
   * @param current the group's levels now (its runtime record), used only where the history has no
   *     record to tell the levels in force at the start of a fresh memory
   */
  public ResourceList fold(GroupId group, Instant now, Supplier<GroupLevels> current) {
    final Instant end = HistoryWindow.windowOf(now, step);
    final FairShareMemory record = memory.get(group);
    final DecayedBorrowing folded =
        kept(record, end)
            .orElseGet(() -> fresh(group, end.minus(step), current))
            .foldThrough(end, halfLife, start -> window(group, start));
    if (!folded.isForgotten()) {
      memory.put(group, record(folded));
    } else if (record != null) {
      memory.delete(group);
    }
    return folded.average(halfLife);
  }

  /**
   * Folds the memories of groups not in {@code folded} (deleted groups: their levels are zero from
   * their deletion on, so their memory decays until it is forgotten and deleted).
   */
  public void foldOthers(Set<GroupId> folded, Instant now) {
    final List<GroupId> others = new ArrayList<>();
    try (KeyValueIterator<GroupId, FairShareMemory> all = memory.all()) {
      while (all.hasNext()) {
        final GroupId group = all.next().key;
        if (!folded.contains(group)) {
          others.add(group);
        }
      }
    }
    others.forEach(group -> fold(group, now, () -> GroupLevels.NONE));
  }

  /** Every kept group's decayed average borrowed as last folded, without folding. */
  public Map<GroupId, ResourceList> averages() {
    final Map<GroupId, ResourceList> averages = new HashMap<>();
    try (KeyValueIterator<GroupId, FairShareMemory> all = memory.all()) {
      while (all.hasNext()) {
        final var entry = all.next();
        if (sameDecay(entry.value)) {
          averages.put(entry.key, borrowing(entry.value).average(halfLife));
        }
      }
    }
    return averages;
  }

  /** {@code group}'s decayed average borrowed as last folded, without folding. */
  public ResourceList averageOf(GroupId group) {
    final FairShareMemory record = memory.get(group);
    return record == null || !sameDecay(record)
        ? ResourceList.empty()
        : borrowing(record).average(halfLife);
  }

  /** The memory kept in {@code record}, if it may be folded on up to {@code end}. */
  private Optional<DecayedBorrowing> kept(FairShareMemory record, Instant end) {
    if (record == null
        || !sameDecay(record)
        || record.getFoldedThrough().isBefore(end.minus(retention))
        || record.getFoldedThrough().isAfter(end)) {
      return Optional.empty();
    }
    return Optional.of(borrowing(record));
  }

  private boolean sameDecay(FairShareMemory record) {
    return record.getStepMillis() == halfLife.stepMillis() && record.getKeep() == halfLife.keep();
  }

  /** A memory starting at {@code from}, with the levels then in force. */
  private DecayedBorrowing fresh(GroupId group, Instant from, Supplier<GroupLevels> current) {
    try (WindowStoreIterator<GroupHistoryWindow> before =
        history.backwardFetch(group, from.minus(retention), from.minusMillis(1))) {
      final GroupLevels levels =
          before.hasNext()
              ? HistoryRecords.window(
                      Instant.ofEpochMilli(before.peekNextKey()), before.next().value)
                  .last()
              : current.get();
      return DecayedBorrowing.startingAt(from, levels);
    }
  }

  private Optional<HistoryWindow> window(GroupId group, Instant start) {
    final GroupHistoryWindow record = history.fetch(group, start.toEpochMilli());
    return record == null ? Optional.empty() : Optional.of(HistoryRecords.window(start, record));
  }

  static FairShareMemory record(DecayedBorrowing borrowing, HalfLife halfLife) {
    final Map<String, ByteBuffer> decayed = new TreeMap<>();
    borrowing
        .decayed()
        .forEach((resource, value) -> decayed.put(resource, ByteBuffer.wrap(value.toByteArray())));
    return new FairShareMemory(
        borrowing.foldedThrough(),
        halfLife.stepMillis(),
        halfLife.keep(),
        decayed,
        new TreeMap<>(borrowing.lastBorrowed().asMap()));
  }

  private FairShareMemory record(DecayedBorrowing borrowing) {
    return record(borrowing, halfLife);
  }

  static DecayedBorrowing borrowing(FairShareMemory record) {
    final Map<String, BigInteger> decayed = new HashMap<>();
    record.getDecayed().forEach((resource, bytes) -> decayed.put(resource, integer(bytes)));
    return new DecayedBorrowing(
        record.getFoldedThrough(), decayed, ResourceList.of(record.getLastBorrowed()));
  }

  private static BigInteger integer(ByteBuffer bytes) {
    final ByteBuffer copy = bytes.duplicate();
    final byte[] array = new byte[copy.remaining()];
    copy.get(array);
    return array.length == 0 ? BigInteger.ZERO : new BigInteger(array);
  }
}
