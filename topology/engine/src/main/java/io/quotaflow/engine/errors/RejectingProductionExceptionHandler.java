package io.quotaflow.engine.errors;

import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.topics.RejectedRecordHeaders;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the engine does with an output record Kafka refuses. A record that can never be written,
 * however often it is tried (larger than the producer's or the topic's maximum, refused as invalid
 * by the broker, or not serializable), is dropped, counted ({@link
 * EngineMetrics#RECORDS_UNWRITABLE} and {@link EngineMetrics#RECORDS_REJECTED}) and, when possible,
 * sent to the dead-letter topic with the standard dead-letter headers saying why: processing goes
 * on. Retrying a write the broker may yet take ({@link RetriableException}: a timeout, a leader
 * moving) is left to Kafka Streams, and any other error fails as it would without this handler.
 *
 * <p>The dead letter carries the input record being processed when the write failed, with its
 * topic, partition and offset in the standard headers, if there was one; else (the write came from
 * a punctuation, as the engine's recomputations do) the refused record's key alone, its value being
 * what could not be written, with the topic it was meant for as source topic and -1 as partition
 * and offset. Either way header {@value #OUTPUT_TOPIC} names the topic it was meant for.
 */
public final class RejectingProductionExceptionHandler implements ProductionExceptionHandler {
  private static final Logger LOG =
      LoggerFactory.getLogger(RejectingProductionExceptionHandler.class);

  /** Header of the dead letter naming the topic the refused record was meant for. */
  public static final String OUTPUT_TOPIC = "quotaflow.output.topic";

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
      final ErrorHandlerContext context,
      final ProducerRecord<byte[], byte[]> record,
      final Exception exception) {
    if (exception instanceof RetriableException) {
      return Response.retry();
    }
    if (!neverWritable(exception)) {
      LOG.error("Writing a record to {} failed; failing the task", record.topic(), exception);
      return Response.fail();
    }
    // The value is what was refused; the key is small and names what the record was about.
    return drop(context, record.topic(), record.key(), exception);
  }

  @Override
  public Response handleSerializationError(
      final ErrorHandlerContext context,
      final ProducerRecord record,
      final Exception exception,
      final SerializationExceptionOrigin origin) {
    return drop(context, record.topic(), null, exception);
  }

  /** Whether no retry can ever write the record. */
  static boolean neverWritable(final Throwable exception) {
    return exception instanceof RecordTooLargeException
        || exception instanceof RecordBatchTooLargeException
        || exception instanceof InvalidRecordException
        || exception instanceof SerializationException;
  }

  private Response drop(
      final ErrorHandlerContext context,
      final String topic,
      final byte[] outputKey,
      final Exception exception) {
    final String reason = exception.getClass().getSimpleName();
    LOG.warn(
        "Dropped a record for {} that can never be written ({}: {}), processing {}-{}@{}",
        topic,
        reason,
        exception.getMessage(),
        context == null ? null : context.topic(),
        context == null ? -1 : context.partition(),
        context == null ? -1 : context.offset());
    metrics.recordUnwritable(topic, reason);
    if (deadLetterTopic == null || deadLetterTopic.isEmpty()) {
      return Response.resume();
    }
    metrics.recordRejected(topic);
    final boolean fromInput =
        context != null
            && context.topic() != null
            && (context.sourceRawKey() != null || context.sourceRawValue() != null);
    final ProducerRecord<byte[], byte[]> deadLetter =
        fromInput
            ? new ProducerRecord<>(
                deadLetterTopic, null, context.sourceRawKey(), context.sourceRawValue())
            : new ProducerRecord<>(deadLetterTopic, null, outputKey, null);
    if (fromInput) {
      RejectedRecordHeaders.write(
          deadLetter.headers(), context.topic(), context.partition(), context.offset(), exception);
    } else {
      RejectedRecordHeaders.write(deadLetter.headers(), topic, -1, -1L, exception);
    }
    deadLetter.headers().add(OUTPUT_TOPIC, topic.getBytes(StandardCharsets.UTF_8));
    return Response.resume(List.of(deadLetter));
  }
}
