package io.quotaflow.bench.pipeline;

import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodState;
import io.quotaflow.topics.TopicCatalogue;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * The baseline: a plain consumer reading the whole pod topic from the beginning with the
 * catalogue's deserializers (keys and values decoded), {@code read_committed}, no group.
 */
final class RawPodConsumer {
  private final String bootstrapServers;
  private final TopicCatalogue topics;

  RawPodConsumer(final String bootstrapServers, final TopicCatalogue topics) {
    this.bootstrapServers = bootstrapServers;
    this.topics = topics;
  }

  /** Reads {@code expected} records (or gives up at {@code deadline}) and times it. */
  Throughput read(final long expected, final Duration limit) {
    final Map<String, Object> settings = ReadCommitted.settings(bootstrapServers, 2_000);
    try (KafkaConsumer<PodKey, PodState> consumer =
        new KafkaConsumer<>(
            settings, topics.pods().keyDeserializer(), topics.pods().valueDeserializer())) {
      final List<TopicPartition> partitions =
          consumer.partitionsFor(topics.pods().name()).stream()
              .map(info -> new TopicPartition(info.topic(), info.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      final long start = System.nanoTime();
      final long deadline = start + limit.toNanos();
      long count = 0;
      long checksum = 0;
      while (count < expected && System.nanoTime() < deadline) {
        final ConsumerRecords<PodKey, PodState> records = consumer.poll(Duration.ofMillis(200));
        for (final ConsumerRecord<PodKey, PodState> record : records) {
          // The connectors' markers (--heartbeats) carry no value and are not pod events.
          if (record.value() == null) {
            continue;
          }
          // Touch the decoded value so the work cannot be skipped.
          checksum += record.value().getRequests().getOrDefault("cpu", 0L);
          count++;
        }
      }
      final long nanos = System.nanoTime() - start;
      if (checksum == 0 && count > 0) {
        throw new IllegalStateException("pods without cpu requests");
      }
      return new Throughput(count, nanos);
    }
  }

  /** Records read in {@code nanos}. */
  record Throughput(long records, long nanos) {
    double perSecond() {
      return records * 1e9 / nanos;
    }
  }
}
