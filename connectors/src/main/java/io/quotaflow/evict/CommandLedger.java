package io.quotaflow.evict;

import io.quotaflow.cluster.GroupMembership;
import io.quotaflow.schemas.EvictionResult;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.serde.RecordDecodingException;
import io.quotaflow.topics.Topic;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ids of the commands that already have a result, read from {@code eviction-results.v1}
 * (committed records only) and added to as this executor commits results. A command whose id is
 * here is never carried out again, whoever wrote its result and whatever offset it was read at.
 *
 * <p>{@link #catchUp()} reads on from where it stopped to the topic's current end, so calling it at
 * every partition assignment costs only the results written meanwhile.
 *
 * <p>Bounded (issue 26): an id is forgotten once its result is older than {@code keep}. The
 * executor sets it well past its maximum command age (twice, plus 10 minutes for clocks that
 * disagree), so a forgotten command read again has expired and is not carried out again.
 */
final class CommandLedger implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(CommandLedger.class);
  private static final Duration POLL = Duration.ofMillis(100);
  private static final int PRUNE_EVERY = 1024;

  private final Consumer<byte[], byte[]> consumer;
  private final Topic<PodKey, EvictionResult> results;
  private final Duration timeout;
  private final Duration keep;
  private final Clock clock;
  private final Map<String, Instant> done = new HashMap<>();
  private int addedSincePrune;
  private boolean assigned;

  /**
   * @param consumer a consumer without a group reading committed records as bytes; owned by the
   *     ledger
   * @param results the results topic
   * @param timeout how long one catch-up may take
   * @param keep how long an id is kept after its result was completed
   * @param clock what "now" is for forgetting
   */
  CommandLedger(
      final Consumer<byte[], byte[]> consumer,
      final Topic<PodKey, EvictionResult> results,
      final Duration timeout,
      final Duration keep,
      final Clock clock) {
    this.consumer = Objects.requireNonNull(consumer, "consumer");
    this.results = Objects.requireNonNull(results, "results");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    this.keep = Objects.requireNonNull(keep, "keep");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Whether the command already has a result. */
  boolean isDone(final String commandId) {
    return done.containsKey(commandId);
  }

  /** How many ids are kept. */
  int size() {
    return done.size();
  }

  /** Records a result this executor has committed, completed at {@code completedAt}. */
  void markDone(final String commandId, final Instant completedAt) {
    done.put(commandId, completedAt);
    if (++addedSincePrune >= PRUNE_EVERY) {
      prune();
    }
  }

  /** Forgets the ids whose results are older than {@code keep}. */
  private void prune() {
    addedSincePrune = 0;
    final Instant oldest = clock.instant().minus(keep);
    done.values().removeIf(completed -> completed.isBefore(oldest));
  }

  /**
   * Reads the results written since the last call, up to the topic's current end.
   *
   * @throws TimeoutException when the end is not reached in time
   */
  void catchUp() {
    if (!assigned) {
      final List<TopicPartition> partitions =
          consumer.partitionsFor(results.name(), timeout).stream()
              .map(info -> new TopicPartition(info.topic(), info.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      assigned = true;
    }
    final Instant deadline = Instant.now().plus(timeout);
    final Map<TopicPartition, Long> end = consumer.endOffsets(consumer.assignment(), timeout);
    final int before = done.size();
    while (end.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
      if (Instant.now().isAfter(deadline)) {
        throw new TimeoutException("Reading " + results.name() + " took longer than " + timeout);
      }
      for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
        take(record);
      }
    }
    prune();
    LOG.debug("{} command ids with results ({} new)", done.size(), done.size() - before);
  }

  private void take(final ConsumerRecord<byte[], byte[]> record) {
    if (record.value() == null) {
      return;
    }
    try {
      final EvictionResult result =
          results.valueDeserializer().deserialize(record.topic(), record.value());
      done.put(result.getCommandId(), result.getCompletedAt());
    } catch (RecordDecodingException e) {
      LOG.warn(
          "{}: skipping unreadable result at partition {} offset {}: {}",
          record.topic(),
          record.partition(),
          record.offset(),
          e.getMessage());
    }
  }

  @Override
  public void close() {
    consumer.close(CloseOptions.timeout(GroupMembership.CLIENT_CLOSE_TIMEOUT));
  }
}
