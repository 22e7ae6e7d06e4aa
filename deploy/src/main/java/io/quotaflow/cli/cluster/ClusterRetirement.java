package io.quotaflow.cli.cluster;

import io.quotaflow.topics.SourceMarkers;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Retires a cluster's state from the input topics: on every partition that holds a record of it, a
 * {@code FORGOTTEN} marker first (the engine then drops what it keeps of the cluster: its writers'
 * identity and epoch, a quarantine for two identities, its freshness), then a tombstone for each of
 * its live keys (the engine deletes those inputs, compaction removes the records). The marker comes
 * first on its partition, so the tombstones are read after it even where the cluster was
 * quarantined, whose records are otherwise dropped.
 */
final class ClusterRetirement {
  private ClusterRetirement() {}

  /**
   * Writes the markers and tombstones and waits for every one to be acknowledged.
   *
   * @return the tombstones written
   * @throws IllegalStateException when a write fails or is not acknowledged within {@code timeout}
   */
  static int write(
      final Producer<byte[], byte[]> producer,
      final String cluster,
      final Map<InputTopics.InputTopic, ClusterHoldings> holdings,
      final Instant at,
      final String source,
      final Duration timeout) {
    final List<Future<RecordMetadata>> writes = new ArrayList<>();
    int tombstones = 0;
    for (final Map.Entry<InputTopics.InputTopic, ClusterHoldings> topic : holdings.entrySet()) {
      final String name = topic.getKey().name();
      final byte[] markerKey = topic.getKey().markerKey().apply(cluster);
      for (final Map.Entry<Integer, List<byte[]>> partition :
          topic.getValue().liveKeys().entrySet()) {
        final RecordHeaders headers = new RecordHeaders();
        headers.add(SourceMarkers.header(SourceMarkers.forgotten(cluster, at, source)));
        writes.add(
            producer.send(
                new ProducerRecord<>(name, partition.getKey(), markerKey, null, headers)));
        for (final byte[] key : partition.getValue()) {
          writes.add(producer.send(new ProducerRecord<>(name, partition.getKey(), key, null)));
          tombstones++;
        }
      }
    }
    producer.flush();
    final long deadline = System.nanoTime() + timeout.toNanos();
    for (final Future<RecordMetadata> write : writes) {
      try {
        write.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (final ExecutionException e) {
        throw new IllegalStateException(
            "a write failed: " + e.getCause().getMessage() + "; run the command again", e);
      } catch (final TimeoutException e) {
        throw new IllegalStateException(
            "writes not acknowledged within " + timeout + "; run the command again", e);
      } catch (final InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted; run the command again", e);
      }
    }
    return tombstones;
  }
}
