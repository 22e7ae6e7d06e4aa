package io.quotaflow.engine.recovery;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks that a task Kafka Streams re-created after closing it dirty restored its stores from the
 * beginning of their changelogs, as a clean restart does.
 *
 * <p>Why it is needed: under exactly-once, a task closed dirty (a TaskCorruptedException after a
 * commit timed out, e.g. while Kafka is away) has its state wiped and is revived to restore from
 * scratch. But when the transaction cannot be aborted either (the broker is still away), Kafka
 * Streams 4.3 keeps the offsets the dead task had written; if the revived task then waits for its
 * changelogs' end offsets longer than the commit interval, the state updater checkpoints those
 * offsets into the empty stores, and the restore begins at the last written offset: the task comes
 * back holding nothing (issue 31). The audit sees each restore's first offset ({@link
 * #onRestoreStart}); the processor asks it, when its task is initialised again, whether any of its
 * stores started past the changelog's first offset, and if so reports its task corrupted again, so
 * that Kafka Streams wipes and restores it once more (this time with the offsets cleared).
 *
 * <p>Only a re-initialised task is judged: a new task (a start, a rebalance, a standby promoted)
 * legitimately restores from where its store already is.
 */
public final class RestoreAudit implements StateRestoreListener {
  private static final Logger LOG = LoggerFactory.getLogger(RestoreAudit.class);

  /** Where a changelog begins now: the offset of its first record still kept. */
  @FunctionalInterface
  public interface ChangelogStarts {
    /**
     * The first offset of each of {@code partitions}.
     *
     * @throws RuntimeException when Kafka cannot tell
     */
    Map<TopicPartition, Long> of(Collection<TopicPartition> partitions);
  }

  /** A restore as Kafka Streams began it. */
  public record RestoreStart(String store, TopicPartition changelog, long from, long to) {
    @Override
    public String toString() {
      return store + " from offset " + from + " (changelog " + changelog + " ends at " + to + ")";
    }
  }

  private final boolean wipedOnDirtyClose;
  private final ChangelogStarts changelogStarts;
  // The last restore begun of each store of each task, by store name and task partition.
  private final Map<String, RestoreStart> started = new ConcurrentHashMap<>();

  /**
   * @param wipedOnDirtyClose whether a task closed dirty loses its state (exactly-once): only then
   *     must its next restore begin at the changelog's start
   * @param changelogStarts where the changelogs begin, asked only when a revived task's restore
   *     began past offset 0
   */
  public RestoreAudit(final boolean wipedOnDirtyClose, final ChangelogStarts changelogStarts) {
    this.wipedOnDirtyClose = wipedOnDirtyClose;
    this.changelogStarts = Objects.requireNonNull(changelogStarts, "changelogStarts");
  }

  /** An audit that never objects, for topologies run without Kafka (TopologyTestDriver). */
  public static RestoreAudit trusting() {
    return new RestoreAudit(false, partitions -> Map.of());
  }

  @Override
  public void onRestoreStart(
      final TopicPartition changelog,
      final String store,
      final long startingOffset,
      final long endingOffset) {
    started.put(
        key(store, changelog.partition()),
        new RestoreStart(store, changelog, startingOffset, endingOffset));
  }

  @Override
  public void onBatchRestored(
      final TopicPartition changelog,
      final String store,
      final long batchEndOffset,
      final long numRestored) {}

  @Override
  public void onRestoreEnd(
      final TopicPartition changelog, final String store, final long totalRestored) {}

  /**
   * The restores of {@code stores} of the task on {@code partition} that began past their
   * changelog's start, when the task was {@code reinitialised} (empty otherwise); forgets the
   * task's restores either way, so each restore is judged once.
   *
   * @throws RuntimeException when where a changelog starts cannot be read; the caller treats the
   *     restore as not proven and restores again
   */
  public List<RestoreStart> skippedRestores(
      final int partition, final Collection<String> stores, final boolean reinitialised) {
    final List<RestoreStart> suspects = new ArrayList<>();
    for (final String store : stores) {
      final RestoreStart start = started.remove(key(store, partition));
      if (start != null && start.from() > 0) {
        suspects.add(start);
      }
    }
    if (!reinitialised || !wipedOnDirtyClose || suspects.isEmpty()) {
      return List.of();
    }
    final Map<TopicPartition, Long> firstOffsets =
        changelogStarts.of(suspects.stream().map(RestoreStart::changelog).toList());
    final List<RestoreStart> skipped =
        suspects.stream()
            .filter(start -> start.from() > firstOffsets.getOrDefault(start.changelog(), 0L))
            .toList();
    if (!skipped.isEmpty()) {
      LOG.warn(
          "Task partition {} restored {} past the start of their changelogs ({})",
          partition,
          skipped.stream().map(RestoreStart::store).collect(Collectors.joining(", ")),
          firstOffsets);
    }
    return skipped;
  }

  private static String key(final String store, final int partition) {
    return store + '#' + partition;
  }
}
