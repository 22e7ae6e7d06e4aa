package io.quotaflow.engine.errors;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.topics.RejectedRecordHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler.Result;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

/**
 * A readable record that breaks the engine (an exception other than invalid input) quarantines its
 * cluster and goes to the dead-letter topic, instead of failing the stream thread on every instance
 * that takes the task over in turn.
 */
class PoisonRecordHandlingTest {
  private final EngineMetrics metrics = new EngineMetrics(new SimpleMeterRegistry());
  private final RejectingProcessingExceptionHandler handler = handler();

  private RejectingProcessingExceptionHandler handler() {
    final RejectingProcessingExceptionHandler configured =
        new RejectingProcessingExceptionHandler();
    configured.configure(
        Map.of(
            StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG,
            "quotaflow.rejected.v1",
            EngineMetrics.CONFIG_KEY,
            metrics));
    return configured;
  }

  @Test
  void aRecordKeyedByClusterThatBreaksTheEngineQuarantinesItsClusterAndIsDeadLettered() {
    final var response =
        handler.handleError(
            new Context(), new Record<>("east", "event", 0L), new IllegalStateException("boom"));

    assertThat(response.result()).isEqualTo(Result.RESUME);
    assertThat(response.deadLetterQueueRecords()).singleElement();
    final Headers headers = response.deadLetterQueueRecords().get(0).headers();
    assertThat(text(headers, RejectedRecordHeaders.MESSAGE)).isEqualTo("boom");
    assertThat(text(headers, RejectedRecordHeaders.SOURCE_OFFSET)).isEqualTo("42");
    assertThat(metrics.quarantine().isQuarantined("east")).isTrue();
    assertThat(metrics.quarantine().reason("east")).get().asString().contains("pods.v1-3@42");
    assertThat(metrics.quarantine().isQuarantined("west")).isFalse();
    assertThat(metrics.registry().get(ClusterQuarantine.QUARANTINED).gauge().value())
        .isEqualTo(1.0);
  }

  @Test
  void anInputKeyNamesTheClusterBeforeTheRecordsAreKeyedByCluster() {
    handler.handleError(
        new Context(),
        new Record<>(new PodKey("west", "apps", "web-1"), null, 0L),
        new IllegalStateException("boom"));

    assertThat(metrics.quarantine().isQuarantined("west")).isTrue();
  }

  @Test
  void aFailureWhoseClusterCannotBeToldStillFailsTheThread() {
    final var response =
        handler.handleError(new Context(), new Record<>(7, "?", 0L), new IllegalStateException());

    assertThat(response.result()).isEqualTo(Result.FAIL);
  }

  @Test
  void aReleasedClusterIsNoLongerQuarantined() {
    metrics.quarantine().quarantine("east", "test");

    metrics.quarantine().release(Set.of("east"));

    assertThat(metrics.quarantine().isQuarantined("east")).isFalse();
    assertThat(metrics.registry().get(ClusterQuarantine.QUARANTINED).gauge().value()).isZero();
  }

  private static String text(final Headers headers, final String key) {
    return new String(headers.lastHeader(key).value(), StandardCharsets.UTF_8);
  }

  private static final class Context implements ErrorHandlerContext {
    @Override
    public String topic() {
      return "quotaflow.pods.v1";
    }

    @Override
    public int partition() {
      return 3;
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
      return "cluster-quota";
    }

    @Override
    public TaskId taskId() {
      return new TaskId(0, 3);
    }

    @Override
    public long timestamp() {
      return 0L;
    }

    @Override
    public byte[] sourceRawKey() {
      return "key".getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public byte[] sourceRawValue() {
      return "value".getBytes(StandardCharsets.UTF_8);
    }
  }
}
