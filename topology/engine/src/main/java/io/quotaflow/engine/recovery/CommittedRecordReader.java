package io.quotaflow.engine.recovery;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads whether a range of a partition holds a committed record, with a {@code read_committed}
 * consumer of its own (no group) made for each question: asked only when a task's first record lies
 * past its committed offset, which transaction markers make common but cheap (one record read).
 */
public final class CommittedRecordReader implements InputResumeAudit.CommittedRecords {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final Duration POLL = Duration.ofMillis(200);

  private final Map<String, Object> settings;

  /** A reader with the connection settings {@code settings} (bootstrap servers, security). */
  public CommittedRecordReader(final Map<String, Object> settings) {
    final Map<String, Object> all = new HashMap<>(settings);
    all.remove(ConsumerConfig.GROUP_ID_CONFIG);
    all.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    all.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    all.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    all.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1);
    all.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    all.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    all.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "quotaflow-input-resume-audit");
    this.settings = Map.copyOf(all);
  }

  /**
   * @throws KafkaException when the range is not read within 10 s
   */
  @Override
  public OptionalLong firstBetween(final TopicPartition partition, final long from, final long to) {
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(settings)) {
      consumer.assign(List.of(partition));
      consumer.seek(partition, from);
      final Instant deadline = Instant.now().plus(TIMEOUT);
      // A read_committed consumer's position passes markers and aborted records without returning
      // them; the first record it returns is the first committed one.
      while (consumer.position(partition, TIMEOUT) < to) {
        for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL).records(partition)) {
          return record.offset() < to ? OptionalLong.of(record.offset()) : OptionalLong.empty();
        }
        if (Instant.now().isAfter(deadline)) {
          throw new KafkaException(
              "Cannot read " + partition + " from offset " + from + " to " + to + " within 10 s");
        }
      }
      return OptionalLong.empty();
    }
  }
}
