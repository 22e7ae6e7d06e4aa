package io.quotaflow.source;

import io.quotaflow.schemas.SourceMarker;
import io.quotaflow.serde.RecordDecodingException;
import io.quotaflow.topics.SourceMarkers;
import io.quotaflow.topics.Topic;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads what a compacted topic holds for some keys: every partition from the beginning up to the
 * end offsets taken when the read starts, the last record of each key winning and tombstones
 * removing it. Values are kept as bytes, exactly as they are in the topic.
 */
final class TopicSnapshot {

  private static final Logger LOG = LoggerFactory.getLogger(TopicSnapshot.class);
  private static final Duration POLL = Duration.ofMillis(200);

  private TopicSnapshot() {}

  /**
   * The live values of the keys {@code wanted} accepts.
   *
   * @param consumer a consumer without a group, reading bytes; only used by this call
   * @param topic the topic to read
   * @param wanted which keys to keep (e.g. those of one cluster)
   * @param timeout how long the whole read may take
   * @throws TimeoutException when the end offsets are not reached in time
   */
  static <K> Map<K, byte[]> read(
      final Consumer<byte[], byte[]> consumer,
      final Topic<K, ?> topic,
      final Predicate<K> wanted,
      final Duration timeout) {
    return read(consumer, topic, wanted, timeout, new HashMap<>());
  }

  /**
   * The live values of the keys {@code wanted} accepts, and in {@code markers} the last marker (see
   * {@link SourceMarkers}) read under each of those keys: what the connectors last said of a kind.
   */
  static <K> Map<K, byte[]> read(
      final Consumer<byte[], byte[]> consumer,
      final Topic<K, ?> topic,
      final Predicate<K> wanted,
      final Duration timeout,
      final Map<K, SourceMarker> markers) {
    Objects.requireNonNull(topic, "topic");
    final Instant deadline = Instant.now().plus(timeout);
    final List<TopicPartition> partitions =
        consumer.partitionsFor(topic.name(), timeout).stream()
            .map(info -> new TopicPartition(info.topic(), info.partition()))
            .toList();
    final Map<K, byte[]> values = new HashMap<>();
    if (partitions.isEmpty()) {
      return values;
    }
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    final Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
    while (!reached(consumer, end)) {
      if (Instant.now().isAfter(deadline)) {
        throw new TimeoutException(
            "Reading " + topic.name() + " did not reach its end offsets within " + timeout);
      }
      for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
        final long stop =
            end.getOrDefault(new TopicPartition(record.topic(), record.partition()), 0L);
        if (record.offset() < stop) {
          take(topic, record, wanted, values, markers);
        }
      }
    }
    consumer.unsubscribe();
    return values;
  }

  private static <K> void take(
      final Topic<K, ?> topic,
      final ConsumerRecord<byte[], byte[]> record,
      final Predicate<K> wanted,
      final Map<K, byte[]> values,
      final Map<K, SourceMarker> markers) {
    final K key;
    try {
      key = topic.keyDeserializer().deserialize(record.topic(), record.key());
    } catch (RecordDecodingException e) {
      LOG.warn(
          "{}: skipping the record at partition {} offset {}, its key cannot be read: {}",
          record.topic(),
          record.partition(),
          record.offset(),
          e.getMessage());
      return;
    }
    if (key == null || !wanted.test(key)) {
      return;
    }
    if (record.value() == null) {
      values.remove(key);
      marker(record).ifPresent(marker -> markers.put(key, marker));
    } else {
      values.put(key, record.value());
    }
  }

  private static Optional<SourceMarker> marker(final ConsumerRecord<byte[], byte[]> record) {
    try {
      return SourceMarkers.read(record.headers());
    } catch (final SerializationException e) {
      LOG.warn(
          "{}: skipping the marker at partition {} offset {}, it cannot be read: {}",
          record.topic(),
          record.partition(),
          record.offset(),
          e.getMessage());
      return Optional.empty();
    }
  }

  private static boolean reached(
      final Consumer<byte[], byte[]> consumer, final Map<TopicPartition, Long> end) {
    return end.entrySet().stream()
        .allMatch(entry -> consumer.position(entry.getKey()) >= entry.getValue());
  }
}
