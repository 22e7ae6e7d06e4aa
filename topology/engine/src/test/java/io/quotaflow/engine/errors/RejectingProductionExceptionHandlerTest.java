package io.quotaflow.engine.errors;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.engine.QuotaTopology;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.topics.RejectedRecordHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler.Response;
import org.apache.kafka.streams.errors.ProductionExceptionHandler.Result;
import org.apache.kafka.streams.errors.ProductionExceptionHandler.SerializationExceptionOrigin;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RejectingProductionExceptionHandlerTest {

  private static final String DEAD_LETTERS = "quotaflow.rejected.v1";
  private static final String RUNTIMES = "quotaflow.runtime.v1";

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final RejectingProductionExceptionHandler handler =
      new RejectingProductionExceptionHandler();

  @BeforeEach
  void configure() {
    handler.configure(
        Map.of(
            StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG,
            DEAD_LETTERS,
            EngineMetrics.CONFIG_KEY,
            new EngineMetrics(registry)));
  }

  @Test
  void aRecordTooLargeFromAPunctuationIsDroppedCountedAndDeadLetteredByItsKey() {
    final ProducerRecord<byte[], byte[]> refused = output("east/team-a", new byte[2_000_000]);

    final Response response =
        handler.handleError(
            Context.punctuation(),
            refused,
            new RecordTooLargeException("The message is 2000090 bytes"));

    assertThat(response.result()).isEqualTo(Result.RESUME);
    assertThat(response.deadLetterQueueRecords())
        .singleElement()
        .satisfies(
            letter -> {
              assertThat(letter.topic()).isEqualTo(DEAD_LETTERS);
              assertThat(letter.key()).isEqualTo(refused.key());
              assertThat(letter.value()).as("the refused value would be refused again").isNull();
              final RejectedRecordHeaders.Rejection why =
                  RejectedRecordHeaders.read(letter.headers()).orElseThrow();
              assertThat(why.sourceTopic()).isEqualTo(RUNTIMES);
              assertThat(why.exceptionClass()).isEqualTo(RecordTooLargeException.class.getName());
              assertThat(why.message()).contains("2000090 bytes");
              assertThat(text(letter.headers(), RejectingProductionExceptionHandler.OUTPUT_TOPIC))
                  .isEqualTo(RUNTIMES);
            });
    assertThat(
            registry
                .get(EngineMetrics.RECORDS_UNWRITABLE)
                .tag("topic", RUNTIMES)
                .tag("reason", "RecordTooLargeException")
                .counter()
                .count())
        .isEqualTo(1.0);
    assertThat(
            registry.get(EngineMetrics.RECORDS_REJECTED).tag("topic", RUNTIMES).counter().count())
        .isEqualTo(1.0);
  }

  @Test
  void aRecordThatCannotBeSerializedDeadLettersTheInputBeingProcessed() {
    final Context context = new Context("quotaflow.pods.v1", 3, 42L, bytes("k"), bytes("v"));

    final Response response =
        handler.handleSerializationError(
            context,
            new ProducerRecord<>(RUNTIMES, "east/team-a", new Object()),
            new SerializationException("cannot serialize"),
            SerializationExceptionOrigin.VALUE);

    assertThat(response.result()).isEqualTo(Result.RESUME);
    assertThat(response.deadLetterQueueRecords())
        .singleElement()
        .satisfies(
            letter -> {
              assertThat(letter.key()).isEqualTo(bytes("k"));
              assertThat(letter.value()).isEqualTo(bytes("v"));
              final RejectedRecordHeaders.Rejection why =
                  RejectedRecordHeaders.read(letter.headers()).orElseThrow();
              assertThat(why.sourceTopic()).isEqualTo("quotaflow.pods.v1");
              assertThat(why.sourcePartition()).isEqualTo(3);
              assertThat(why.sourceOffset()).isEqualTo(42L);
              assertThat(text(letter.headers(), RejectingProductionExceptionHandler.OUTPUT_TOPIC))
                  .isEqualTo(RUNTIMES);
            });
  }

  @Test
  void retriableErrorsAreLeftToKafkaStreamsToRetry() {
    assertThat(
            handler
                .handleError(
                    Context.punctuation(), output("k", bytes("v")), new TimeoutException("t"))
                .result())
        .isEqualTo(Result.RETRY);
    assertThat(
            handler
                .handleError(
                    Context.punctuation(),
                    output("k", bytes("v")),
                    new NotLeaderOrFollowerException("moving"))
                .result())
        .isEqualTo(Result.RETRY);
    assertThat(registry.find(EngineMetrics.RECORDS_UNWRITABLE).counter()).isNull();
  }

  @Test
  void otherErrorsFailAsUsual() {
    final Response response =
        handler.handleError(
            Context.punctuation(),
            output("k", bytes("v")),
            new TopicAuthorizationException("not allowed"));

    assertThat(response.result()).isEqualTo(Result.FAIL);
    assertThat(response.deadLetterQueueRecords()).isEmpty();
  }

  @Test
  void withoutADeadLetterTopicTheRecordIsStillDroppedAndCounted() {
    final RejectingProductionExceptionHandler bare = new RejectingProductionExceptionHandler();
    bare.configure(Map.of(EngineMetrics.CONFIG_KEY, new EngineMetrics(registry)));

    final Response response =
        bare.handleError(
            Context.punctuation(), output("k", bytes("v")), new RecordTooLargeException("big"));

    assertThat(response.result()).isEqualTo(Result.RESUME);
    assertThat(response.deadLetterQueueRecords()).isEmpty();
    assertThat(registry.get(EngineMetrics.RECORDS_UNWRITABLE).counter().count()).isEqualTo(1.0);
  }

  @Test
  void theEngineUsesIt() {
    final EngineConfig config =
        EngineConfig.builder().set(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "kafka:9092").build();

    assertThat(
            QuotaTopology.streamsProperties(config.topics(), config, EngineMetrics.discarding())
                .get(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG))
        .isEqualTo(RejectingProductionExceptionHandler.class);
  }

  private static ProducerRecord<byte[], byte[]> output(final String key, final byte[] value) {
    return new ProducerRecord<>(RUNTIMES, 0, bytes(key), value);
  }

  private static byte[] bytes(final String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String text(final Headers headers, final String key) {
    return new String(headers.lastHeader(key).value(), StandardCharsets.UTF_8);
  }

  private record Context(String topic, int partition, long offset, byte[] key, byte[] value)
      implements ErrorHandlerContext {

    /** What Kafka Streams hands in for a write of a punctuation: no input record. */
    static Context punctuation() {
      return new Context(null, -1, -1L, null, null);
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
      return new TaskId(0, Math.max(0, partition));
    }

    @Override
    public long timestamp() {
      return 0L;
    }

    @Override
    public byte[] sourceRawKey() {
      return key;
    }

    @Override
    public byte[] sourceRawValue() {
      return value;
    }
  }
}
