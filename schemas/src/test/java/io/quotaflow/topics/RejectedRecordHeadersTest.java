package io.quotaflow.topics;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.serde.RecordDecodingException;
import io.quotaflow.serde.RecordRole;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.internals.ExceptionHandlerUtils;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;

class RejectedRecordHeadersTest {
  private static final RecordDecodingException FAILURE =
      new RecordDecodingException("quotaflow.pods.v1", RecordRole.VALUE, "garbage", null);

  @Test
  void headerNamesAreTheOnesKafkaStreamsDeadLetterQueueWrites() {
    assertThat(RejectedRecordHeaders.EXCEPTION)
        .isEqualTo(ExceptionHandlerUtils.HEADER_ERRORS_EXCEPTION_NAME);
    assertThat(RejectedRecordHeaders.MESSAGE)
        .isEqualTo(ExceptionHandlerUtils.HEADER_ERRORS_EXCEPTION_MESSAGE_NAME);
    assertThat(RejectedRecordHeaders.STACKTRACE)
        .isEqualTo(ExceptionHandlerUtils.HEADER_ERRORS_STACKTRACE_NAME);
    assertThat(RejectedRecordHeaders.SOURCE_TOPIC)
        .isEqualTo(ExceptionHandlerUtils.HEADER_ERRORS_TOPIC_NAME);
    assertThat(RejectedRecordHeaders.SOURCE_PARTITION)
        .isEqualTo(ExceptionHandlerUtils.HEADER_ERRORS_PARTITION_NAME);
    assertThat(RejectedRecordHeaders.SOURCE_OFFSET)
        .isEqualTo(ExceptionHandlerUtils.HEADER_ERRORS_OFFSET_NAME);
  }

  @Test
  void aDeadLetterBuiltByKafkaStreamsReadsBack() {
    final ProducerRecord<byte[], byte[]> deadLetter =
        ExceptionHandlerUtils.buildDeadLetterQueueRecord(
            "quotaflow.rejected.v1", new byte[] {1}, new byte[] {2}, new Context(), FAILURE);

    assertThat(RejectedRecordHeaders.read(deadLetter.headers()))
        .contains(
            new RejectedRecordHeaders.Rejection(
                "quotaflow.pods.v1",
                4,
                42L,
                RecordDecodingException.class.getName(),
                FAILURE.getMessage()));
  }

  @Test
  void headersWrittenByAConnectorReadBack() {
    final Headers headers = new RecordHeaders();
    RejectedRecordHeaders.write(headers, "quotaflow.quotas.v1", 2, 7L, FAILURE);

    assertThat(RejectedRecordHeaders.read(headers))
        .contains(
            new RejectedRecordHeaders.Rejection(
                "quotaflow.quotas.v1",
                2,
                7L,
                RecordDecodingException.class.getName(),
                FAILURE.getMessage()));
    assertThat(
            new String(
                headers.lastHeader(RejectedRecordHeaders.STACKTRACE).value(),
                StandardCharsets.UTF_8))
        .contains("RecordDecodingException");
  }

  @Test
  void recordsWithoutDeadLetterHeadersAreNotRejections() {
    final Headers headers = new RecordHeaders().add("trace-id", new byte[] {1});

    assertThat(RejectedRecordHeaders.read(headers)).isEmpty();
  }

  /**
   * The context Kafka Streams gives its exception handlers, for a record at partition 4, offset 42.
   */
  private static final class Context implements ErrorHandlerContext {
    @Override
    public String topic() {
      return "quotaflow.pods.v1";
    }

    @Override
    public int partition() {
      return 4;
    }

    @Override
    public long offset() {
      return 42L;
    }

    @Override
    public Headers headers() {
      return new RecordHeaders();
    }

    @Override
    public String processorNodeId() {
      return "pods-source";
    }

    @Override
    public TaskId taskId() {
      return new TaskId(0, 4);
    }

    @Override
    public long timestamp() {
      return 1L;
    }

    @Override
    public byte[] sourceRawKey() {
      return new byte[] {1};
    }

    @Override
    public byte[] sourceRawValue() {
      return new byte[] {2};
    }
  }
}
