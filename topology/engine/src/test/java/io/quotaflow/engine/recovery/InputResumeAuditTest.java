package io.quotaflow.engine.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.errors.TaskMigratedException;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.junit.jupiter.api.Test;

/**
 * A task's first record of each input partition must be the first committed record at or after the
 * partition's committed offset (issue 40.7); records between, which Kafka Streams' defect skips
 * (docs/upstream/kafka-streams-revived-task-skips-fetched-records.md), make the stream thread
 * rejoin its group. Transaction markers and aborted records between are not records skipped.
 */
class InputResumeAuditTest {
  private static final TopicPartition RESULTS = new TopicPartition("app-results-repartition", 3);
  private static final TopicPartition PODS = new TopicPartition("pods.v1", 3);

  private final Map<TopicPartition, Long> committed = new HashMap<>();
  // The offsets of each partition's committed records (markers and aborted records left out).
  private final Map<TopicPartition, TreeSet<Long>> records = new HashMap<>();
  private final AtomicInteger committedReads = new AtomicInteger();
  private final List<String> rangesRead = new ArrayList<>();
  private final AtomicInteger skipped = new AtomicInteger();
  private final InputResumeAudit audit =
      new InputResumeAudit(
          partitions -> {
            committedReads.incrementAndGet();
            return Map.copyOf(committed);
          },
          ranges -> {
            final Map<TopicPartition, Long> found = new HashMap<>();
            ranges.forEach(
                (partition, range) -> {
                  rangesRead.add(partition + "[" + range.from() + "," + range.to() + ")");
                  final Long first =
                      records.getOrDefault(partition, new TreeSet<>()).ceiling(range.from());
                  if (first != null && first < range.to()) {
                    found.put(partition, first);
                  }
                });
            return found;
          },
          skipped::incrementAndGet);

  @Test
  void aTaskResumingPastACommittedRecordMakesItsThreadRejoin() {
    committed.put(RESULTS, 40L);
    records(RESULTS, 40, 41, 42, 43, 44, 45);

    assertThatThrownBy(() -> audit.incarnation(new MockProcessorContext<>()).check(at(RESULTS, 45)))
        .isInstanceOf(TaskMigratedException.class)
        .hasMessageContaining(
            "to resume at 40 (committed, or first kept), resumed at 45, record 40 skipped");
    assertThat(skipped).hasValue(1);
  }

  @Test
  void onlyMarkersAndAbortedRecordsBetweenAreNotSkipped() {
    committed.put(PODS, 40L);
    // 40 a commit marker, 41 to 43 an aborted transaction, 44 its abort marker.
    records(PODS, 45, 46);

    assertThatCode(() -> audit.incarnation(new MockProcessorContext<>()).check(at(PODS, 45)))
        .doesNotThrowAnyException();
    assertThat(rangesRead).containsExactly(PODS + "[40,45)");
    assertThat(skipped).hasValue(0);
  }

  @Test
  void aTaskResumingAtItsCommittedOffsetReadsNothing() {
    committed.put(PODS, 40L);
    records(PODS, 40);

    audit.incarnation(new MockProcessorContext<>()).check(at(PODS, 40));

    assertThat(rangesRead).isEmpty();
  }

  @Test
  void aPartitionNeverCommittedIsNotJudged() {
    records(PODS, 0, 1, 2);

    audit.incarnation(new MockProcessorContext<>()).check(at(PODS, 2));

    assertThat(rangesRead).isEmpty();
  }

  @Test
  void onlyEachIncarnationsFirstRecordOfAPartitionIsChecked() {
    committed.put(PODS, 40L);
    committed.put(RESULTS, 7L);
    records(PODS, 40, 41);
    records(RESULTS, 7, 8);
    final InputResumeAudit.Incarnation incarnation =
        audit.incarnation(new MockProcessorContext<>());

    incarnation.check(at(PODS, 40));
    incarnation.check(at(RESULTS, 7));
    // A later record past others is this incarnation's own progress, not a resumption.
    incarnation.check(at(PODS, 41));
    incarnation.check(at(RESULTS, 9));

    // Once for each partition's first record, none for the later ones.
    assertThat(committedReads).hasValue(2);
    assertThat(rangesRead).isEmpty();
    assertThatThrownBy(() -> audit.incarnation(new MockProcessorContext<>()).check(at(PODS, 41)))
        .isInstanceOf(TaskMigratedException.class);
  }

  @Test
  void theSameGapRightAfterARejoinIsTheTopologysOwnAndAccepted() {
    // Record 40 is rejected before it reaches the processor (a poison record): after the rejoin
    // the task starts at 40 again and the processor's first record is 41 again.
    committed.put(PODS, 40L);
    records(PODS, 40, 41);

    assertThatThrownBy(() -> audit.incarnation(new MockProcessorContext<>()).check(at(PODS, 41)))
        .isInstanceOf(TaskMigratedException.class);
    assertThatCode(() -> audit.incarnation(new MockProcessorContext<>()).check(at(PODS, 41)))
        .doesNotThrowAnyException();
    assertThat(skipped).hasValue(1);
    // Not for good: a new skip at the same offsets later is one again.
    assertThatThrownBy(() -> audit.incarnation(new MockProcessorContext<>()).check(at(PODS, 41)))
        .isInstanceOf(TaskMigratedException.class);
  }

  @Test
  void aGapOtherThanTheOneRejoinedForMakesTheThreadRejoinAgain() {
    committed.put(PODS, 40L);
    records(PODS, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50);

    assertThatThrownBy(() -> audit.incarnation(new MockProcessorContext<>()).check(at(PODS, 45)))
        .isInstanceOf(TaskMigratedException.class);
    assertThatThrownBy(() -> audit.incarnation(new MockProcessorContext<>()).check(at(PODS, 50)))
        .isInstanceOf(TaskMigratedException.class);
    assertThat(skipped).hasValue(2);
  }

  @Test
  void whenKafkaCannotTellTheTaskGoesOnAndIsNotJudged() {
    final InputResumeAudit unsure =
        new InputResumeAudit(
            partitions -> {
              throw new IllegalStateException("Kafka is away");
            },
            ranges -> Map.of(PODS, 40L),
            skipped::incrementAndGet);

    assertThatCode(() -> unsure.incarnation(new MockProcessorContext<>()).check(at(PODS, 45)))
        .doesNotThrowAnyException();
    assertThat(skipped).hasValue(0);
  }

  @Test
  void aRecordWithoutASourceIsNotJudged() {
    committed.put(PODS, 40L);

    assertThatCode(() -> audit.incarnation(new MockProcessorContext<>()).check(Optional.empty()))
        .doesNotThrowAnyException();
    assertThat(committedReads).hasValue(0);
  }

  @Test
  void aTaskWhoseConsumerResumesPastACommittedRecordRejoinsFromAPunctuationWithoutARecord() {
    committed.put(RESULTS, 40L);
    records(RESULTS, 40, 41);
    audit.readPositionsWith(taskPartition -> Map.of(RESULTS, 250L));
    final MockProcessorContext<Object, Object> context = new MockProcessorContext<>();

    audit.incarnation(context);

    assertThat(context.scheduledPunctuators()).hasSize(1);
    assertThatThrownBy(() -> context.scheduledPunctuators().get(0).getPunctuator().punctuate(0))
        .isInstanceOf(TaskMigratedException.class)
        .hasMessageContaining(
            "to resume at 40 (committed, or first kept), resumed at 250, record 40 skipped");
    assertThat(skipped).hasValue(1);
  }

  @Test
  void aRecordBeforeThePunctuationRejoinsAtOnce() {
    committed.put(RESULTS, 40L);
    records(RESULTS, 40, 41);
    audit.readPositionsWith(taskPartition -> Map.of(RESULTS, 250L));

    final InputResumeAudit.Incarnation incarnation =
        audit.incarnation(new MockProcessorContext<>());

    assertThatThrownBy(() -> incarnation.check(at(PODS, 7)))
        .isInstanceOf(TaskMigratedException.class);
  }

  @Test
  void aTaskWhoseConsumerResumesAtTheCommittedOffsetsOrPastMarkersGoesOn() {
    committed.put(RESULTS, 40L);
    committed.put(PODS, 12L);
    records(RESULTS, 40);
    records(PODS, 14);
    audit.readPositionsWith(taskPartition -> Map.of(RESULTS, 40L, PODS, 14L));
    final MockProcessorContext<Object, Object> context = new MockProcessorContext<>();

    final InputResumeAudit.Incarnation incarnation = audit.incarnation(context);
    // Partitions judged by their position are not judged again by their first record.
    incarnation.check(at(PODS, 20));

    assertThat(context.scheduledPunctuators()).isEmpty();
    assertThat(rangesRead).containsExactly(PODS + "[12,14)");
    assertThat(skipped).hasValue(0);
  }

  @Test
  void positionsAreAskedForTheTasksPartition() {
    final List<Integer> asked = new ArrayList<>();
    audit.readPositionsWith(
        taskPartition -> {
          asked.add(taskPartition);
          return Map.of();
        });
    final MockProcessorContext<Object, Object> context =
        new MockProcessorContext<>(new java.util.Properties(), new TaskId(0, 3), null);

    audit.incarnation(context);

    assertThat(asked).containsExactly(3);
  }

  @Test
  void whenTheConsumerCannotTellTheFirstRecordsAreJudged() {
    committed.put(PODS, 40L);
    records(PODS, 40, 41);
    audit.readPositionsWith(
        taskPartition -> {
          throw new IllegalStateException("position timed out");
        });

    final InputResumeAudit.Incarnation incarnation =
        audit.incarnation(new MockProcessorContext<>());

    assertThatThrownBy(() -> incarnation.check(at(PODS, 41)))
        .isInstanceOf(TaskMigratedException.class);
  }

  private void records(final TopicPartition partition, final long... offsets) {
    final TreeSet<Long> set = records.computeIfAbsent(partition, p -> new TreeSet<>());
    for (final long offset : offsets) {
      set.add(offset);
    }
  }

  private static Optional<RecordMetadata> at(final TopicPartition partition, final long offset) {
    return Optional.of(
        new RecordMetadata() {
          @Override
          public String topic() {
            return partition.topic();
          }

          @Override
          public int partition() {
            return partition.partition();
          }

          @Override
          public long offset() {
            return offset;
          }
        });
  }
}
