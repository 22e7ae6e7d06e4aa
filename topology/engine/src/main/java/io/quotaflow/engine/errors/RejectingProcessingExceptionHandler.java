package io.quotaflow.engine.errors;

import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.topics.RejectedRecordHeaders;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends an input record whose content is invalid ({@link InvalidInputException}) to the dead-letter
 * topic with its original key and value bytes and the standard dead-letter headers, and lets
 * processing go on. Any other exception is a bug, not a bad record: it fails the stream thread, so
 * the state is never silently corrupted.
 */
public final class RejectingProcessingExceptionHandler implements ProcessingExceptionHandler {
  private static final Logger LOG =
      LoggerFactory.getLogger(RejectingProcessingExceptionHandler.class);

  private String deadLetterTopic;
  private EngineMetrics metrics = EngineMetrics.discarding();

  @Override
  public void configure(final Map<String, ?> configs) {
    final Object topic = configs.get(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG);
    deadLetterTopic = topic == null ? null : topic.toString();
    if (configs.get(EngineMetrics.CONFIG_KEY) instanceof EngineMetrics configured) {
      metrics = configured;
    }
  }

  @Override
  public Response handleError(
      final ErrorHandlerContext context, final Record<?, ?> record, final Exception exception) {
    final InvalidInputException invalid = invalidInput(exception);
    if (invalid == null) {
      LOG.error(
          "Processing failed in {} on {}-{}@{}",
          context.processorNodeId(),
          context.topic(),
          context.partition(),
          context.offset(),
          exception);
      return Response.fail();
    }
    LOG.warn(
        "Rejected record {}-{}@{}: {}",
        context.topic(),
        context.partition(),
        context.offset(),
        invalid.getMessage());
    metrics.recordRejected(context.topic());
    if (deadLetterTopic == null || deadLetterTopic.isEmpty()) {
      return Response.resume();
    }
    final ProducerRecord<byte[], byte[]> deadLetter =
        new ProducerRecord<>(
            deadLetterTopic, null, context.sourceRawKey(), context.sourceRawValue());
    RejectedRecordHeaders.write(
        deadLetter.headers(), context.topic(), context.partition(), context.offset(), invalid);
    return Response.resume(List.of(deadLetter));
  }

  private static InvalidInputException invalidInput(final Throwable exception) {
    for (Throwable cause = exception; cause != null; cause = cause.getCause()) {
      if (cause instanceof InvalidInputException invalid) {
        return invalid;
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return null;
  }
}
