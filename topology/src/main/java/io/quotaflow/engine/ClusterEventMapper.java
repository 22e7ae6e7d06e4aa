package io.quotaflow.engine;

import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.schemas.internal.ClusterEvent;
import java.util.Objects;
import java.util.function.BiFunction;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * Turns the records of one input topic into cluster events keyed by cluster name, so the
 * repartition that follows brings every input of a cluster to one task. It checks each record's
 * content on the way (see {@link InputEvents}) and notes where the record came from.
 */
final class ClusterEventMapper<K, V> extends ContextualProcessor<K, V, String, ClusterEvent> {
  private final BiFunction<K, V, ClusterEvent.Builder> reader;
  private final EngineMetrics metrics;

  ClusterEventMapper(
      final BiFunction<K, V, ClusterEvent.Builder> reader, final EngineMetrics metrics) {
    this.reader = Objects.requireNonNull(reader, "reader");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  @Override
  public void process(final Record<K, V> record) {
    final RecordMetadata source = context().recordMetadata().orElse(null);
    if (source != null) {
      metrics.recordRead(source.topic());
    }
    final ClusterEvent.Builder event = reader.apply(record.key(), record.value());
    if (source != null) {
      event
          .setSourceTopic(source.topic())
          .setSourcePartition(source.partition())
          .setSourceOffset(source.offset());
    }
    final ClusterEvent built = event.build();
    context().forward(record.withKey(built.getCluster()).withValue(built));
  }
}
