package io.quotaflow.engine.errors;

import io.quotaflow.engine.metrics.EngineMetrics;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;

/**
 * Kafka Streams' own log-and-continue handler, which writes a record that cannot be deserialized to
 * the dead-letter topic ({@code errors.dead.letter.queue.topic.name}, KIP-1034), plus a count of
 * rejected records per topic.
 */
public final class RejectingDeserializationExceptionHandler extends LogAndContinueExceptionHandler {
  private EngineMetrics metrics = EngineMetrics.discarding();

  @Override
  public void configure(final Map<String, ?> configs) {
    super.configure(configs);
    if (configs.get(EngineMetrics.CONFIG_KEY) instanceof EngineMetrics configured) {
      metrics = configured;
    }
  }

  @Override
  public Response handleError(
      final ErrorHandlerContext context,
      final ConsumerRecord<byte[], byte[]> record,
      final Exception exception) {
    metrics.recordRejected(record.topic());
    return super.handleError(context, record, exception);
  }
}
