package io.quotaflow.engine;

import io.quotaflow.engine.errors.InvalidInputException;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.store.InputId.InputKind;
import io.quotaflow.schemas.SourceMarker;
import io.quotaflow.schemas.internal.ClusterEvent;
import io.quotaflow.topics.ClusterPartitioner;
import io.quotaflow.topics.SourceMarkers;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * Turns the records of one input topic into cluster events keyed by cluster name, so the
 * repartition that follows brings every input of a cluster to one task. It checks each record's
 * content on the way (see {@link InputEvents}), and, when the inputs come partitioned by cluster
 * (no repartition), that the record sits on its cluster's partition; it notes where the record came
 * from.
 */
final class ClusterEventMapper<K, V> extends ContextualProcessor<K, V, String, ClusterEvent> {
  private final InputEvents.Reader<K, V> reader;
  private final EngineMetrics metrics;
  private final int partitions;
  private final InputKind markerKind;
  private String lastTopic;
  private Runnable countRead = () -> {};

  /**
   * @param reader checks a record and makes its event
   * @param metrics counts what is read
   * @param partitions with inputs partitioned by cluster, the input topics' partition count, and
   *     each record must sit on its cluster's partition; 0 when records are repartitioned
   * @param markerKind the input kind of the topic, whose records may be connectors' markers; null
   *     for a topic without markers
   */
  ClusterEventMapper(
      final InputEvents.Reader<K, V> reader,
      final EngineMetrics metrics,
      final int partitions,
      final InputKind markerKind) {
    this.reader = Objects.requireNonNull(reader, "reader");
    this.markerKind = markerKind;
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.partitions = partitions;
  }

  @Override
  public void process(final Record<K, V> record) {
    final RecordMetadata source = context().recordMetadata().orElse(null);
    final InputEvents.Source where;
    if (source != null) {
      countRead(source.topic());
      where = new InputEvents.Source(source.topic(), source.partition(), source.offset());
    } else {
      where = InputEvents.Source.UNKNOWN;
    }
    final ClusterEvent event = read(record, where);
    if (partitions > 0 && source != null) {
      requireClusterPartition(event.getCluster(), source);
    }
    context().forward(record.withKey(event.getCluster()).withValue(event));
  }

  /**
   * The record's event: a marker when its headers carry one (checked only for records without a
   * value, as markers have none), else the object or tombstone the reader makes of it.
   */
  private ClusterEvent read(final Record<K, V> record, final InputEvents.Source where) {
    if (record.value() == null && markerKind != null) {
      final Optional<SourceMarker> marker;
      try {
        marker = SourceMarkers.read(record.headers());
      } catch (final SerializationException e) {
        throw new InvalidInputException("unreadable marker header: " + e.getMessage());
      }
      if (marker.isPresent()) {
        return InputEvents.marker(
            ClusterPartitioner.clusterOf(record.key()), markerKind, marker.get(), where);
      }
    }
    return reader.read(record.key(), record.value(), where);
  }

  /** Counts a record read, with the counter of its topic looked up once per topic change. */
  private void countRead(final String topic) {
    if (!topic.equals(lastTopic)) {
      lastTopic = topic;
      countRead = metrics.readCounter(topic);
    }
    countRead.run();
  }

  /** Without the repartition hop, a record on another partition would split its cluster's tree. */
  private void requireClusterPartition(final String cluster, final RecordMetadata source) {
    final int expected = ClusterPartitioner.partitionOf(cluster, partitions);
    if (source.partition() != expected) {
      throw new InvalidInputException(
          String.format(
              "record of cluster %s on partition %d of %s; with inputs.partitioned.by.cluster"
                  + " every record of it must be on partition %d of %d (partition the producer"
                  + " with ClusterPartitioner)",
              cluster, source.partition(), source.topic(), expected, partitions));
    }
  }
}
