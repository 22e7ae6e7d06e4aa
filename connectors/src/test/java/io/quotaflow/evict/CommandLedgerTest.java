package io.quotaflow.evict;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.EvictionOutcome;
import io.quotaflow.schemas.EvictionResult;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.topics.Topic;
import io.quotaflow.topics.TopicCatalogue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.internals.AutoOffsetResetStrategy;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * Issue 26: the ids of commands with a result are kept as long as such a command could still be
 * carried out (its result younger than the keep time, well past the maximum command age), then
 * forgotten: the ledger no longer grows for a whole leader term.
 */
class CommandLedgerTest {

  private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");
  private static final Duration KEEP = Duration.ofMinutes(20);
  private static final Topic<PodKey, EvictionResult> RESULTS =
      TopicCatalogue.withDefaultPrefix().evictionResults();
  private static final TopicPartition PARTITION = new TopicPartition(RESULTS.name(), 0);

  @Test
  void resultsOlderThanTheKeepTimeAreForgottenAndYoungerOnesKept() {
    final MockConsumer<byte[], byte[]> consumer = consumer();
    record(consumer, 0, "old", NOW.minus(KEEP).minusSeconds(1));
    record(consumer, 1, "recent", NOW.minus(KEEP).plusSeconds(1));
    consumer.updateEndOffsets(Map.of(PARTITION, 2L));
    try (CommandLedger ledger =
        new CommandLedger(
            consumer, RESULTS, Duration.ofSeconds(5), KEEP, Clock.fixed(NOW, ZoneOffset.UTC))) {
      ledger.catchUp();

      assertThat(ledger.isDone("old")).as("a result older than the keep time").isFalse();
      assertThat(ledger.isDone("recent")).isTrue();
    }
  }

  @Test
  void resultsThisExecutorCommitsAreKeptAndPrunedAsTheyAge() {
    final MockConsumer<byte[], byte[]> consumer = consumer();
    consumer.updateEndOffsets(Map.of(PARTITION, 0L));
    try (CommandLedger ledger =
        new CommandLedger(
            consumer, RESULTS, Duration.ofSeconds(5), KEEP, Clock.fixed(NOW, ZoneOffset.UTC))) {
      ledger.catchUp();
      ledger.markDone("mine", NOW);
      for (int i = 0; i < 2_000; i++) {
        ledger.markDone("ancient-" + i, NOW.minus(KEEP).minusSeconds(60));
      }

      assertThat(ledger.isDone("mine")).isTrue();
      assertThat(ledger.size()).as("the ancient ones are pruned as they come").isLessThan(1_100);
    }
  }

  private static MockConsumer<byte[], byte[]> consumer() {
    final MockConsumer<byte[], byte[]> consumer =
        new MockConsumer<>(AutoOffsetResetStrategy.EARLIEST.name());
    consumer.updatePartitions(
        RESULTS.name(),
        List.of(new PartitionInfo(RESULTS.name(), 0, Node.noNode(), new Node[0], new Node[0])));
    consumer.updateBeginningOffsets(Map.of(PARTITION, 0L));
    return consumer;
  }

  private static void record(
      final MockConsumer<byte[], byte[]> consumer,
      final long offset,
      final String commandId,
      final Instant completedAt) {
    final EvictionResult result =
        EvictionResult.newBuilder()
            .setCommandId(commandId)
            .setPodUid("uid")
            .setOutcome(EvictionOutcome.EVICTED)
            .setMessage("")
            .setAttempts(1)
            .setCompletedAt(completedAt)
            .build();
    consumer.schedulePollTask(
        () ->
            consumer.addRecord(
                new ConsumerRecord<>(
                    RESULTS.name(),
                    0,
                    offset,
                    new byte[] {1},
                    RESULTS.valueSerializer().serialize(RESULTS.name(), result))));
  }
}
