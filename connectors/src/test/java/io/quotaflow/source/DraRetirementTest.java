package io.quotaflow.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.cluster.KubeCluster;
import io.quotaflow.schemas.DeviceClassState;
import io.quotaflow.schemas.DraKey;
import io.quotaflow.schemas.MarkerKind;
import io.quotaflow.schemas.SourceMarker;
import io.quotaflow.topics.SourceMarkers;
import io.quotaflow.topics.Topic;
import io.quotaflow.topics.TopicCatalogue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.internals.AutoOffsetResetStrategy;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 40.13: connectors started without DRA after a run that watched it say so, with a {@code
 * RETIRED} marker on each DRA topic, rather than going silent (the engine would otherwise wait for
 * the kind's heartbeats for good). A cluster whose topics show no earlier watch, or one already
 * retired, gets nothing. Each source seeds from a mock consumer holding what the earlier run wrote
 * and starts with {@code source.dra=false}; no API server is called.
 */
class DraRetirementTest {
  private static final String EAST = "east";
  private static final TopicCatalogue TOPICS = TopicCatalogue.withDefaultPrefix();
  private static final Instant EARLIER = Instant.parse("2026-01-01T00:00:00Z");

  private final KubernetesClient client =
      new KubernetesClientBuilder()
          .withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").build())
          .build();
  private final ScheduledExecutorService reconciler = Executors.newSingleThreadScheduledExecutor();
  private final ScheduledExecutorService starter = Executors.newSingleThreadScheduledExecutor();
  private final MockProducer<byte[], byte[]> producer =
      new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
  private final List<ClusterSource<?, ?, ?>> sources = new ArrayList<>();

  @AfterEach
  void close() throws InterruptedException {
    sources.forEach(ClusterSource::close);
    reconciler.shutdownNow();
    starter.shutdownNow();
    reconciler.awaitTermination(5, TimeUnit.SECONDS);
    starter.awaitTermination(5, TimeUnit.SECONDS);
    client.close();
  }

  @Test
  void everyDraKindWatchedByAnEarlierRunIsRetired() {
    for (final DraKind<?, ?> kind : DraKind.all(TOPICS, DraWatch.NEVER)) {
      start(kind, List.of(marker(SourceMarkers.heartbeat(EAST, EARLIER, "earlier"))));
    }

    assertThat(producer.history())
        .extracting(ProducerRecord::topic)
        .containsExactlyInAnyOrder(
            TOPICS.deviceClasses().name(),
            TOPICS.resourceClaims().name(),
            TOPICS.resourceClaimTemplates().name(),
            TOPICS.resourceSlices().name());
    for (final ProducerRecord<byte[], byte[]> record : producer.history()) {
      assertThat(record.value()).isNull();
      assertThat(TOPICS.deviceClasses().keyDeserializer().deserialize(record.topic(), record.key()))
          .isEqualTo(SourceMarkers.draKey(EAST));
      final SourceMarker marker = SourceMarkers.read(record.headers()).orElseThrow();
      assertThat(marker.getKind()).isEqualTo(MarkerKind.RETIRED);
      assertThat(marker.getCluster()).isEqualTo(EAST);
    }
  }

  @Test
  void objectsOfAnEarlierRunWhoseMarkersWereCompactedAwayAlsoRetireTheKind() {
    final Topic<DraKey, DeviceClassState> classes = TOPICS.deviceClasses();
    final byte[] key =
        classes.keySerializer().serialize(classes.name(), new DraKey(EAST, "", "gpu"));
    final byte[] value =
        classes.valueSerializer().serialize(classes.name(), new DeviceClassState(List.of()));

    start(deviceClasses(), List.of(new Held(key, value, new RecordHeaders())));

    assertThat(markersWritten()).containsExactly(MarkerKind.RETIRED);
  }

  @Test
  void aClusterWhoseTopicShowsNoEarlierWatchGetsNothing() {
    final Topic<DraKey, DeviceClassState> classes = TOPICS.deviceClasses();
    // Another cluster's marker is not this one's.
    final byte[] west =
        classes.keySerializer().serialize(classes.name(), SourceMarkers.draKey("west"));
    start(
        deviceClasses(),
        List.of(
            new Held(west, null, headers(SourceMarkers.heartbeat("west", EARLIER, "earlier")))));

    assertThat(producer.history()).isEmpty();
  }

  @Test
  void aKindAlreadyRetiredIsNotRetiredAgain() {
    start(
        deviceClasses(),
        List.of(
            marker(SourceMarkers.heartbeat(EAST, EARLIER, "earlier")),
            marker(SourceMarkers.retired(EAST, EARLIER.plusSeconds(60), "earlier"))));

    assertThat(producer.history()).isEmpty();
  }

  private static DraKind<?, ?> deviceClasses() {
    return DraKind.all(TOPICS, DraWatch.NEVER).get(0);
  }

  private List<MarkerKind> markersWritten() {
    return producer.history().stream()
        .map(record -> SourceMarkers.read(record.headers()))
        .flatMap(Optional::stream)
        .map(SourceMarker::getKind)
        .toList();
  }

  /** Seeds a source of {@code kind} from its topic holding {@code held}, then starts it. */
  private void start(final DraKind<?, ?> kind, final List<Held> held) {
    final ClusterSource<?, ?, ?> source =
        new ClusterSource<>(
            new KubeCluster(EAST, client),
            kind,
            SourceSettings.defaults().withDra(DraWatch.NEVER),
            producer,
            new SimpleMeterRegistry(),
            reconciler,
            starter);
    sources.add(source);
    source.seed(consumer(kind.topic().name(), held), SourceSettings.defaults());
    source.start().orTimeout(10, TimeUnit.SECONDS).join();
  }

  /** A record as an earlier run left it: key, value (null: none), headers. */
  private record Held(byte[] key, byte[] value, RecordHeaders headers) {}

  /** {@code marker} of east, placed on whichever DRA topic the source reads. */
  private static Held marker(final SourceMarker marker) {
    return new Held(
        TOPICS
            .deviceClasses()
            .keySerializer()
            .serialize(TOPICS.deviceClasses().name(), SourceMarkers.draKey(EAST)),
        null,
        headers(marker));
  }

  private static RecordHeaders headers(final SourceMarker marker) {
    return new RecordHeaders(List.of(SourceMarkers.header(marker)));
  }

  private static MockConsumer<byte[], byte[]> consumer(final String topic, final List<Held> held) {
    final MockConsumer<byte[], byte[]> consumer =
        new MockConsumer<>(AutoOffsetResetStrategy.EARLIEST.name());
    final TopicPartition partition = new TopicPartition(topic, 0);
    consumer.updatePartitions(
        topic, List.of(new PartitionInfo(topic, 0, Node.noNode(), new Node[0], new Node[0])));
    consumer.updateBeginningOffsets(Map.of(partition, 0L));
    consumer.updateEndOffsets(Map.of(partition, (long) held.size()));
    for (int offset = 0; offset < held.size(); offset++) {
      final Held record = held.get(offset);
      final long at = offset;
      consumer.schedulePollTask(
          () ->
              consumer.addRecord(
                  new ConsumerRecord<>(
                      topic,
                      0,
                      at,
                      EARLIER.toEpochMilli(),
                      TimestampType.CREATE_TIME,
                      record.key().length,
                      record.value() == null ? -1 : record.value().length,
                      record.key(),
                      record.value(),
                      record.headers(),
                      Optional.empty())));
    }
    return consumer;
  }
}
