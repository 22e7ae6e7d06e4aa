package io.quotaflow.evict;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.engine.reclaim.EvictionReasons;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionResult;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.topics.RejectedRecordHeaders;
import io.quotaflow.topics.Topic;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The answers {@link EvictionExecutor} has reached and not yet committed: a result record, a dead
 * letter for an unreadable command, or nothing (a command passed over). Each answer moves its
 * command's offset in {@link CommandProgress}; {@link #commit} writes the answers and the offsets
 * they let move on in one transaction, and only then marks the results done in the ledger, counts
 * and logs them. Used by the executor's Kafka thread only.
 */
final class CommandAnswers {

  private static final Logger LOG = LoggerFactory.getLogger(CommandAnswers.class);

  /**
   * A command's answer: its record (a result, a dead letter, or none), and what follows its commit.
   */
  private record Answer(
      TopicPartition partition,
      Optional<ProducerRecord<byte[], byte[]>> record,
      Runnable onCommit) {}

  private final Topic<PodKey, EvictionResult> results;
  private final Topic<byte[], byte[]> rejected;
  private final CommandProgress progress;
  private final CommandLedger ledger;
  private final ResultTransactions transactions;
  private final Clock clock;
  private final MeterRegistry registry;
  private final List<Answer> answers = new ArrayList<>();

  CommandAnswers(
      final Topic<PodKey, EvictionResult> results,
      final Topic<byte[], byte[]> rejected,
      final CommandProgress progress,
      final CommandLedger ledger,
      final ResultTransactions transactions,
      final Clock clock,
      final MeterRegistry registry) {
    this.results = results;
    this.rejected = rejected;
    this.progress = progress;
    this.ledger = ledger;
    this.transactions = transactions;
    this.clock = clock;
    this.registry = registry;
  }

  /** Answers a command that needs no record: another executor's, a tombstone, a duplicate. */
  void passOver(final TopicPartition partition, final long offset) {
    answer(partition, offset, Optional.empty(), () -> {});
  }

  /** Answers an unreadable command with a dead letter on the rejected topic. */
  void deadLetter(
      final TopicPartition partition,
      final ConsumerRecord<byte[], byte[]> record,
      final Exception error) {
    final ProducerRecord<byte[], byte[]> letter =
        new ProducerRecord<>(rejected.name(), record.key(), record.value());
    RejectedRecordHeaders.write(
        letter.headers(), record.topic(), record.partition(), record.offset(), error);
    answer(partition, record.offset(), Optional.of(letter), () -> {});
  }

  /** Answers a command with its result record. */
  void verdict(
      final TopicPartition partition,
      final long offset,
      final PodKey key,
      final EvictionCommand command,
      final Verdict verdict) {
    final EvictionResult result =
        EvictionResult.newBuilder()
            .setCommandId(command.getId())
            .setPodUid(command.getPodUid())
            .setOutcome(verdict.outcome())
            .setMessage(verdict.message())
            .setAttempts(verdict.attempts())
            .setCompletedAt(clock.instant())
            .build();
    answer(
        partition,
        offset,
        Optional.of(resultRecord(key, result)),
        () -> {
          ledger.markDone(command.getId(), result.getCompletedAt());
          Counter.builder("quotaflow.evictions.results")
              .tags(
                  "cluster",
                  key.getCluster(),
                  "outcome",
                  verdict.outcome().name(),
                  "reason",
                  EvictionReasons.ofResult(command, verdict.outcome()))
              .register(registry)
              .increment();
          LOG.info(
              "cluster {}: command {} for pod {}/{}: {} ({})",
              key.getCluster(),
              command.getId(),
              key.getNamespace(),
              key.getName(),
              verdict.outcome(),
              verdict.message());
        });
  }

  private void answer(
      final TopicPartition partition,
      final long offset,
      final Optional<ProducerRecord<byte[], byte[]>> record,
      final Runnable onCommit) {
    progress.answered(partition, offset);
    answers.add(new Answer(partition, record, onCommit));
  }

  /**
   * Commits the answers collected and the offsets they let move on, in one transaction.
   *
   * @return false when the transaction was aborted (the caller reads the commands again)
   */
  boolean commit(final ConsumerGroupMetadata group) throws InterruptedException {
    final Map<TopicPartition, OffsetAndMetadata> offsets = progress.advanced();
    if (answers.isEmpty() && offsets.isEmpty()) {
      return true;
    }
    final List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
    answers.forEach(answer -> answer.record().ifPresent(records::add));
    if (!transactions.commit(records, offsets, group)) {
      return false;
    }
    progress.committed(offsets);
    answers.forEach(answer -> answer.onCommit().run());
    answers.clear();
    return true;
  }

  /** Forgets every answer not committed (the executor goes back to the committed offsets). */
  void clear() {
    answers.clear();
  }

  /** Forgets the answers of partitions taken away (their next owner reads the commands again). */
  void drop(final Collection<TopicPartition> partitions) {
    answers.removeIf(answer -> partitions.contains(answer.partition()));
  }

  private ProducerRecord<byte[], byte[]> resultRecord(
      final PodKey key, final EvictionResult result) {
    return new ProducerRecord<>(
        results.name(),
        results.keySerializer().serialize(results.name(), key),
        results.valueSerializer().serialize(results.name(), result));
  }
}
