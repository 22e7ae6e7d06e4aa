package io.quotaflow.engine.errors;

import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.topics.ClusterPartitioner;
import io.quotaflow.topics.RejectedRecordHeaders;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 * processing go on. Any other exception is a bug met by a readable record (a "poison" record): the
 * record goes to the dead-letter topic too and its cluster is quarantined ({@link
 * ClusterQuarantine}: no longer computed nor reclaimed), so that one record cannot stop every
 * instance in turn; when the record's cluster cannot be told, the stream thread fails.
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
      final Optional<String> cluster = clusterOf(record);
      LOG.error(
          "Processing failed in {} on {}-{}@{} (cluster {})",
          context.processorNodeId(),
          context.topic(),
          context.partition(),
          context.offset(),
          cluster.orElse("unknown"),
          exception);
      if (cluster.isEmpty()) {
        return Response.fail();
      }
      // A poison record: its cluster is quarantined, the others go on (issue 26).
      metrics
          .quarantine()
          .quarantine(
              cluster.get(),
              "record "
                  + context.topic()
                  + "-"
                  + context.partition()
                  + "@"
                  + context.offset()
                  + " failed with "
                  + exception);
      return deadLetter(context, exception);
    }
    LOG.warn(
        "Rejected record {}-{}@{}: {}",
        context.topic(),
        context.partition(),
        context.offset(),
        invalid.getMessage());
    return deadLetter(context, invalid);
  }

  private Response deadLetter(final ErrorHandlerContext context, final Exception reason) {
    metrics.recordRejected(context.topic());
    if (deadLetterTopic == null || deadLetterTopic.isEmpty()) {
      return Response.resume();
    }
    final ProducerRecord<byte[], byte[]> deadLetter =
        new ProducerRecord<>(
            deadLetterTopic, null, context.sourceRawKey(), context.sourceRawValue());
    RejectedRecordHeaders.write(
        deadLetter.headers(), context.topic(), context.partition(), context.offset(), reason);
    return Response.resume(List.of(deadLetter));
  }

  /**
   * The cluster a failed record belongs to: the key itself after the records are keyed by cluster,
   * the cluster of an input's key before; empty when it cannot be told (then the thread fails).
   */
  private static Optional<String> clusterOf(final Record<?, ?> record) {
    if (record == null || record.key() == null) {
      return Optional.empty();
    }
    if (record.key() instanceof String cluster) {
      return Optional.of(cluster);
    }
    try {
      return Optional.of(ClusterPartitioner.clusterOf(record.key()));
    } catch (final IllegalArgumentException notAnInputKey) {
      return Optional.empty();
    }
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
