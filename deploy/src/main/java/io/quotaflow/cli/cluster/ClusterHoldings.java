package io.quotaflow.cli.cluster;

import io.quotaflow.schemas.MarkerKind;
import io.quotaflow.schemas.SourceMarker;
import io.quotaflow.topics.ClusterPartitioner;
import io.quotaflow.topics.SourceMarkers;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * What one input topic holds of one cluster, read from its beginning to the end it had when the
 * read started: the keys whose last record is a value (live), by partition, and when the connectors
 * last wrote a heartbeat or snapshot marker of the cluster there.
 *
 * @param topic the topic's name
 * @param liveKeys per partition that holds any record of the cluster (markers included), the keys
 *     of the cluster's objects that are live there, as bytes
 * @param lastWriterMarker the record time of the newest heartbeat or snapshot marker of the cluster
 */
record ClusterHoldings(
    String topic, Map<Integer, List<byte[]>> liveKeys, Optional<Instant> lastWriterMarker) {

  /** Whether the topic holds anything of the cluster. */
  boolean isEmpty() {
    return liveKeys.isEmpty();
  }

  /** How many live keys of the cluster the topic holds. */
  int live() {
    return liveKeys.values().stream().mapToInt(List::size).sum();
  }

  /**
   * Reads {@code topic} with {@code consumer} (assigned, in no group) for {@code cluster}'s
   * records.
   *
   * @throws IllegalStateException when the topic does not exist or is not read within {@code
   *     timeout}
   */
  static ClusterHoldings read(
      final Consumer<byte[], byte[]> consumer,
      final String topic,
      final String cluster,
      final Duration timeout) {
    final List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
    if (infos == null || infos.isEmpty()) {
      throw new IllegalStateException("topic " + topic + " does not exist in this Kafka");
    }
    final List<TopicPartition> partitions = new ArrayList<>();
    infos.forEach(info -> partitions.add(new TopicPartition(topic, info.partition())));
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    final Map<TopicPartition, Long> ends = new HashMap<>(consumer.endOffsets(partitions, timeout));
    final Map<Integer, Map<ByteBuffer, byte[]>> live = new TreeMap<>();
    Instant lastMarker = null;
    final long deadline = System.nanoTime() + timeout.toNanos();
    while (!ends.isEmpty()) {
      ends.entrySet().removeIf(end -> consumer.position(end.getKey(), timeout) >= end.getValue());
      if (ends.isEmpty()) {
        break;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("reading " + topic + " took longer than " + timeout);
      }
      for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
        if (record.key() == null || !cluster.equals(clusterOf(record.key()))) {
          continue;
        }
        final Map<ByteBuffer, byte[]> keys =
            live.computeIfAbsent(record.partition(), p -> new LinkedHashMap<>());
        final ByteBuffer key = ByteBuffer.wrap(record.key());
        if (record.value() != null) {
          keys.put(key, record.key());
          continue;
        }
        keys.remove(key);
        if (isWriterMarker(record)) {
          final Instant at = Instant.ofEpochMilli(record.timestamp());
          lastMarker = lastMarker == null || at.isAfter(lastMarker) ? at : lastMarker;
        }
      }
    }
    final Map<Integer, List<byte[]>> liveKeys = new TreeMap<>();
    live.forEach((partition, keys) -> liveKeys.put(partition, List.copyOf(keys.values())));
    return new ClusterHoldings(topic, liveKeys, Optional.ofNullable(lastMarker));
  }

  private static String clusterOf(final byte[] key) {
    try {
      return ClusterPartitioner.clusterOf(key);
    } catch (final RuntimeException e) {
      return null; // not a key quotaflow reads: not the cluster's
    }
  }

  /** A heartbeat or snapshot marker: written by connectors that watch the cluster. */
  private static boolean isWriterMarker(final ConsumerRecord<byte[], byte[]> record) {
    try {
      final Optional<SourceMarker> marker = SourceMarkers.read(record.headers());
      return marker
          .map(SourceMarker::getKind)
          .filter(
              kind ->
                  kind == MarkerKind.HEARTBEAT
                      || kind == MarkerKind.SNAPSHOT_START
                      || kind == MarkerKind.SNAPSHOT_END)
          .isPresent();
    } catch (final RuntimeException e) {
      return false;
    }
  }
}
