package io.quotaflow.engine;

import io.quotaflow.engine.errors.InvalidInputException;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.schemas.internal.ClusterEvent;
import io.quotaflow.topics.ClusterPartitioner;
import java.util.Objects;
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
  private String lastTopic;
  private Runnable countRead = () -> {};

  /**
   * @param reader checks a record and makes its event
   * @param metrics counts what is read
   * @param partitions with inputs partitioned by cluster, the input topics' partition count, and
   *     each record must sit on its cluster's partition; 0 when records are repartitioned
   */
  ClusterEventMapper(
      final InputEvents.Reader<K, V> reader, final EngineMetrics metrics, final int partitions) {
    this.reader = Objects.requireNonNull(reader, "reader");
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
    final ClusterEvent event = reader.read(record.key(), record.value(), where);
    if (partitions > 0 && source != null) {
      requireClusterPartition(event.getCluster(), source);
    }
    context().forward(record.withKey(event.getCluster()).withValue(event));
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
