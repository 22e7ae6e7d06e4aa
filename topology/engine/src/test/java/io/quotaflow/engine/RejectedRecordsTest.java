package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.node;
import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.quotaflow.engine.errors.InvalidInputException;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.schemas.NodeKey;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.serde.RecordDecodingException;
import io.quotaflow.topics.RejectedRecordHeaders;
import io.quotaflow.topics.RejectedRecordHeaders.Rejection;
import io.quotaflow.topics.TopicCatalogue;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad records go to rejected.v1 with their original bytes, where they came from and why, and
 * processing goes on: bytes that do not decode through Kafka Streams' own dead-letter queue,
 * readable records with unusable content through the engine's processing exception handler.
 */
class RejectedRecordsTest {
  private static final String EAST = "east";
  private static final byte[] GARBAGE = "not avro at all".getBytes(StandardCharsets.UTF_8);

  private EngineDriver engine;

  @BeforeEach
  void start() {
    engine = new EngineDriver();
    engine
        .putNode(EAST, "n1", node(10_000))
        .putQuota(EAST, "team-a", quota().min(cpu(4_000)).max(cpu(8_000)).build());
  }

  @AfterEach
  void close() {
    engine.close();
  }

  static Stream<Function<TopicCatalogue, String>> inputTopics() {
    return Stream.of(
        topics -> topics.pods().name(),
        topics -> topics.quotas().name(),
        topics -> topics.nodes().name(),
        topics -> topics.podGroups().name());
  }

  @ParameterizedTest
  @MethodSource("inputTopics")
  void garbageBytesOnAnInputTopicAreRejectedWithTheirOriginAndReason(
      final Function<TopicCatalogue, String> input) {
    // TopologyTestDriver drops a dead letter written while reading under exactly_once_v2 (it clears
    // its producer's open transaction before anything commits it); the broker-based
    // EngineExactlyOnceIT checks the same path under exactly_once_v2.
    engine.close();
    engine =
        new EngineDriver(
            EngineDriver.settings()
                .set(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE)
                .build());
    engine.putNode(EAST, "n1", node(10_000));
    engine.putQuota(EAST, "team-a", quota().min(cpu(4_000)).max(cpu(8_000)).build());
    final String topic = input.apply(engine.topics());

    engine.pipeRaw(topic, GARBAGE, GARBAGE);

    final TestRecord<byte[], byte[]> rejected = onlyRejected();
    assertThat(rejected.key()).isEqualTo(GARBAGE);
    assertThat(rejected.value()).isEqualTo(GARBAGE);
    final Rejection rejection = RejectedRecordHeaders.read(rejected.headers()).orElseThrow();
    assertThat(rejection.sourceTopic()).isEqualTo(topic);
    assertThat(rejection.sourcePartition()).isZero();
    assertThat(rejection.sourceOffset()).isGreaterThanOrEqualTo(0);
    assertThat(rejection.exceptionClass()).isEqualTo(RecordDecodingException.class.getName());
    assertThat(rejection.message()).contains("not single-object encoded Avro");
    assertThat(rejectedCount(topic)).isEqualTo(1.0);
    processingGoesOn();
  }

  @Test
  void aPodWithANegativeRequestIsRejectedWithTheReason() {
    final PodKey key = new PodKey(EAST, "apps", "p1");
    final PodState pod = pod("p1").group("team-a").cpu(-5).build();

    engine.putPod(EAST, "apps", "p1", pod);

    final TestRecord<byte[], byte[]> rejected = onlyRejected();
    assertThat(rejected.key())
        .isEqualTo(engine.topics().pods().keySerializer().serialize("t", key));
    assertThat(rejected.value())
        .isEqualTo(engine.topics().pods().valueSerializer().serialize("t", pod));
    final Rejection rejection = RejectedRecordHeaders.read(rejected.headers()).orElseThrow();
    assertThat(rejection.sourceTopic()).isEqualTo(engine.topics().pods().name());
    assertThat(rejection.exceptionClass()).isEqualTo(InvalidInputException.class.getName());
    assertThat(rejection.message()).isEqualTo("negative request of cpu: -5");
    processingGoesOn();
  }

  @Test
  void aQuotaOfAnEmptyClusterIsRejected() {
    engine
        .driver()
        .createInputTopic(
            engine.topics().quotas().name(),
            engine.topics().quotas().keySerializer(),
            engine.topics().quotas().valueSerializer())
        .pipeInput(new QuotaKey("", "team-x"), quota().build());

    final Rejection rejection = RejectedRecordHeaders.read(onlyRejected().headers()).orElseThrow();
    assertThat(rejection.message()).isEqualTo("empty cluster");
    processingGoesOn();
  }

  @Test
  void aNodeWithNegativeAllocatableIsRejected() {
    engine
        .driver()
        .createInputTopic(
            engine.topics().nodes().name(),
            engine.topics().nodes().keySerializer(),
            engine.topics().nodes().valueSerializer())
        .pipeInput(new NodeKey(EAST, "n2"), node(-1));

    final Rejection rejection = RejectedRecordHeaders.read(onlyRejected().headers()).orElseThrow();
    assertThat(rejection.message()).isEqualTo("negative allocatable of cpu: -1");
    processingGoesOn();
    assertThat(engine.group(EAST, SpecialGroups.ROOT).runtime())
        .as("the rejected node does not count")
        .isEqualTo(ResourceList.of("cpu", 10_000));
  }

  @Test
  void anInvalidQuotaTreeIsNotABadRecord() {
    engine
        .putQuota(EAST, "orphan", quota().parent("missing").min(cpu(1)).max(cpu(2)).build())
        .recompute();

    assertThat(engine.rejectedRecords()).isEmpty();
    assertThat(engine.group(EAST, "orphan").valid()).isFalse();
  }

  private TestRecord<byte[], byte[]> onlyRejected() {
    final var rejected = engine.rejectedRecords();
    assertThat(rejected).hasSize(1);
    return rejected.get(0);
  }

  private double rejectedCount(final String topic) {
    final Counter counter =
        engine
            .metrics()
            .registry()
            .find(EngineMetrics.RECORDS_REJECTED)
            .tag("topic", topic)
            .counter();
    return counter == null ? 0 : counter.count();
  }

  /** A valid record after the bad one is computed as usual. */
  private void processingGoesOn() {
    engine.putPod(EAST, "apps", pod("ok").group("team-a").running("n1").cpu(1_000)).recompute();
    assertThat(engine.group(EAST, "team-a").used()).isEqualTo(ResourceList.of("cpu", 1_000));
    assertThat(engine.table(EAST)).isEqualTo(engine.expected(EAST));
  }
}
