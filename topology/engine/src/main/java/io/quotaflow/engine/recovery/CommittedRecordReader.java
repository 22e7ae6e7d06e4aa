package io.quotaflow.engine.recovery;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads whether ranges of partitions hold committed records, with a {@code read_committed} consumer
 * of its own (no group) made for each question: asked when a task resumes past its committed
 * offsets, which transaction markers make common (a repartition topic written under exactly-once
 * has one after each commit), so all of a task's ranges are read at once, one record each.
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
    all.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    all.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    all.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "quotaflow-input-resume-audit");
    this.settings = Map.copyOf(all);
  }

  /**
   * @throws KafkaException when the ranges are not read within 10 s
   */
  @Override
  public Map<TopicPartition, Long> firstIn(
      final Map<TopicPartition, InputResumeAudit.Range> ranges) {
    final Map<TopicPartition, Long> found = new HashMap<>();
    if (ranges.isEmpty()) {
      return found;
    }
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(settings)) {
      consumer.assign(ranges.keySet());
      ranges.forEach((partition, range) -> consumer.seek(partition, range.from()));
      final Map<TopicPartition, InputResumeAudit.Range> open = new HashMap<>(ranges);
      final Instant deadline = Instant.now().plus(TIMEOUT);
      while (true) {
        // A read_committed consumer's position passes markers and aborted records without
        // returning them: a range is settled by its first record returned, or by the position.
        open.entrySet()
            .removeIf(range -> consumer.position(range.getKey(), TIMEOUT) >= range.getValue().to());
        consumer.pause(ranges.keySet().stream().filter(p -> !open.containsKey(p)).toList());
        if (open.isEmpty()) {
          return found;
        }
        for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
          final TopicPartition partition = new TopicPartition(record.topic(), record.partition());
          final InputResumeAudit.Range range = open.remove(partition);
          if (range != null && record.offset() < range.to()) {
            found.put(partition, record.offset());
          }
        }
        if (Instant.now().isAfter(deadline)) {
          throw new KafkaException("Cannot read " + open + " within 10 s");
        }
      }
    }
  }
}
