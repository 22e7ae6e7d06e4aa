package io.quotaflow.engine.recovery;

import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.errors.TaskMigratedException;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks that a task starts reading each input partition at the application's committed offset, as
 * every task (new, re-created, revived) must.
 *
 * <p>Why it is needed: Kafka Streams 4.3 can resume a task past records its failed incarnation had
 * fetched (docs/upstream/kafka-streams-revived-task-skips-fetched-records.md). Under exactly-once,
 * a task found corrupted is closed dirty and revived with its partitions marked to be reset to the
 * committed offsets; but the rebalance Kafka Streams then enforces closes the revived task before
 * it is initialised and creates a new one, which does not reset them, and the consumer, whose
 * partitions stayed assigned, goes on from where it had fetched to. The records between were never
 * processed (or only in the aborted transaction) and never will be: eviction results and denials
 * are not written again by anyone, and objects wait for the connectors' next snapshot.
 *
 * <p>The check: when the task's processor is initialised, where the stream thread's consumer will
 * read each of the task's partitions next ({@link Positions}) is compared with the partition's
 * committed offset (stable), or for a partition never committed with where the reset policy starts
 * it ({@link ResumeOffsets}); a partition whose position is unknown is judged by the first record
 * the processor sees of it instead (which needs a record to come). A position or record further on
 * is not enough: transaction markers and aborted records sit between committed records, so the
 * range is read with a {@code read_committed} consumer, and only a committed record in it counts as
 * skipped. Then the stream thread is reported fenced ({@link TaskMigratedException}), from a
 * punctuation or the next record, before anything is applied: Kafka Streams closes its tasks,
 * unsubscribes and joins the group again, and the partitions it is given start at the committed
 * offsets (reporting the task corrupted again would only repeat the defect). A gap between the
 * committed offset and a first record, found twice in a row at the same offsets around such a
 * rejoin, is one the topology makes itself (records rejected before they reach the processor) and
 * is accepted.
 */
public final class InputResumeAudit {
  private static final Logger LOG = LoggerFactory.getLogger(InputResumeAudit.class);

  /** Where a task must resume its partitions. */
  @FunctionalInterface
  public interface ResumeOffsets {
    /**
     * For each of {@code partitions} that can be judged, where a task must resume it: the
     * application's committed offset, with no transaction pending on it, or, for a partition never
     * committed, where Kafka Streams' reset policy starts it when that is known (the first offset
     * kept, under {@code earliest}).
     *
     * @throws RuntimeException when Kafka cannot tell
     */
    Map<TopicPartition, Long> of(Set<TopicPartition> partitions);
  }

  /** Where the calling stream thread's consumer will read a task's partitions next. */
  @FunctionalInterface
  public interface Positions {
    /**
     * The next offset of each input partition of the task on {@code taskPartition}, or empty when
     * unknown (no consumer to ask).
     *
     * @throws RuntimeException when the consumer cannot tell
     */
    Map<TopicPartition, Long> of(int taskPartition);
  }

  /** Offsets {@code from} (included) to {@code to} (excluded) of a partition. */
  public record Range(long from, long to) {}

  /** The committed records of partitions. */
  @FunctionalInterface
  public interface CommittedRecords {
    /**
     * The offset of the first record a {@code read_committed} consumer reads in each range, for the
     * ranges that hold one (the others hold markers and aborted records only).
     *
     * @throws RuntimeException when Kafka cannot tell
     */
    Map<TopicPartition, Long> firstIn(Map<TopicPartition, Range> ranges);
  }

  /**
   * Records of {@code partition} from {@code committed} (included) to {@code first}, where the task
   * resumes, not read.
   */
  public record Gap(TopicPartition partition, long committed, long first, long firstSkipped) {
    @Override
    public String toString() {
      return partition
          + ": to resume at "
          + committed
          + " (committed, or first kept), resumed at "
          + first
          + ", record "
          + firstSkipped
          + " skipped";
    }
  }

  private final ResumeOffsets resumeOffsets;
  private final CommittedRecords committedRecords;
  private final Runnable skipped;
  private volatile Positions positions = taskPartition -> Map.of();
  // The gap each partition's last rejoin was for: the same gap right after it is the topology's.
  private final Map<TopicPartition, Gap> rejoinedFor = new ConcurrentHashMap<>();

  /**
   * @param resumeOffsets where tasks must resume
   * @param committedRecords reads a range of committed records
   * @param skipped told each time records were found skipped (a metric)
   */
  public InputResumeAudit(
      final ResumeOffsets resumeOffsets,
      final CommittedRecords committedRecords,
      final Runnable skipped) {
    this.resumeOffsets = Objects.requireNonNull(resumeOffsets, "resumeOffsets");
    this.committedRecords = Objects.requireNonNull(committedRecords, "committedRecords");
    this.skipped = Objects.requireNonNull(skipped, "skipped");
  }

  /** An audit that never objects, for topologies run without Kafka (TopologyTestDriver). */
  public static InputResumeAudit trusting() {
    return new InputResumeAudit(partitions -> Map.of(), ranges -> Map.of(), () -> {});
  }

  /** Where tasks resume is read with {@code positions} from now on (once the topology is known). */
  public void readPositionsWith(final Positions positions) {
    this.positions = Objects.requireNonNull(positions, "positions");
  }

  /**
   * The check of one incarnation of a task's processor, called at each initialisation: where the
   * task resumes is checked now; when records were skipped, {@code context} gets a punctuation that
   * makes the thread rejoin, unless a record comes first.
   */
  public Incarnation incarnation(final ProcessorContext<?, ?> context) {
    final Incarnation incarnation = new Incarnation();
    incarnation.checkPositions(context);
    return incarnation;
  }

  /** What one incarnation has read: its first record of each partition is checked. */
  public final class Incarnation {
    private final Map<String, BitSet> seen = new HashMap<>();
    // Records skipped before this incarnation began, found from the consumer's positions.
    private Gap skippedBefore;

    private Incarnation() {}

    private void checkPositions(final ProcessorContext<?, ?> context) {
      final int taskPartition = context.taskId().partition();
      final Map<TopicPartition, Long> next;
      try {
        next = positions.of(taskPartition);
        next.keySet().forEach(partition -> markSeen(partition.topic(), partition.partition()));
        skippedBefore = gaps(next).stream().findFirst().orElse(null);
      } catch (final RuntimeException e) {
        LOG.warn(
            "Cannot check that task {} resumed at its committed offsets; its first records are"
                + " checked instead",
            context.taskId(),
            e);
        seen.clear();
        skippedBefore = null;
        return;
      }
      if (skippedBefore != null) {
        final Gap gap = skippedBefore;
        context.schedule(
            Duration.ofMillis(1), PunctuationType.WALL_CLOCK_TIME, timestamp -> rejoin(gap));
      }
    }

    /** Marks a partition seen; whether it was already. */
    private boolean markSeen(final String topic, final int partition) {
      final BitSet partitions = seen.computeIfAbsent(topic, name -> new BitSet());
      final boolean was = partitions.get(partition);
      partitions.set(partition);
      return was;
    }

    /**
     * Checks the record being processed when it is this incarnation's first of its partition.
     *
     * @param record the record's source, as {@code ProcessorContext.recordMetadata()} gives it
     * @throws TaskMigratedException when records between the committed offset and it were skipped
     */
    public void check(final Optional<RecordMetadata> record) {
      if (skippedBefore != null) {
        rejoin(skippedBefore);
      }
      if (record.isEmpty()) {
        return;
      }
      final RecordMetadata source = record.get();
      if (source.partition() < 0 || markSeen(source.topic(), source.partition())) {
        return;
      }
      final TopicPartition partition = new TopicPartition(source.topic(), source.partition());
      final Optional<Gap> gap;
      try {
        gap = gaps(Map.of(partition, source.offset())).stream().findFirst();
      } catch (final RuntimeException e) {
        // Kafka cannot tell now: a rejoin would not tell more, and one on every failure would
        // stall the engine while Kafka is away. Logged for the operator.
        LOG.warn(
            "Cannot check that {} resumed at its committed offset (first record read: {})",
            partition,
            source.offset(),
            e);
        return;
      }
      if (gap.isPresent()) {
        rejoinUnlessRepeated(gap.get());
      } else {
        rejoinedFor.remove(partition);
      }
    }

    /** The gaps between the committed offsets and where the task resumes, {@code next}. */
    private List<Gap> gaps(final Map<TopicPartition, Long> next) {
      if (next.isEmpty()) {
        return List.of();
      }
      final Map<TopicPartition, Long> expected = resumeOffsets.of(next.keySet());
      final Map<TopicPartition, Range> past = new HashMap<>();
      next.forEach(
          (partition, first) -> {
            final Long from = expected.get(partition);
            if (from != null && first > from) {
              past.put(partition, new Range(from, first));
            }
          });
      if (past.isEmpty()) {
        return List.of();
      }
      final List<Gap> gaps = new ArrayList<>();
      committedRecords
          .firstIn(past)
          .forEach(
              (partition, skipped) ->
                  gaps.add(
                      new Gap(
                          partition,
                          past.get(partition).from(),
                          past.get(partition).to(),
                          skipped)));
      return gaps;
    }
  }

  /**
   * Has the stream thread rejoin its group, unless the same gap between a committed offset and a
   * first record was found right after the last rejoin.
   */
  private void rejoinUnlessRepeated(final Gap gap) {
    if (gap.equals(rejoinedFor.remove(gap.partition()))) {
      LOG.info(
          "{} again after a rejoin: those records do not reach the processor (rejected on the way),"
              + " nothing was skipped",
          gap);
      return;
    }
    rejoinedFor.put(gap.partition(), gap);
    rejoin(gap);
  }

  /** Has the stream thread rejoin its group so that it reads on from the committed offsets. */
  private void rejoin(final Gap gap) {
    skipped.run();
    LOG.warn(
        "Task resumed past records after the last commit ({}): Kafka Streams kept its consumer's"
            + " position past records a failed incarnation had fetched; the stream thread rejoins"
            + " its group to read on from the committed offsets",
        gap);
    throw new TaskMigratedException(
        "Records after the committed offset were skipped (" + gap + "); rejoining the group");
  }
}
