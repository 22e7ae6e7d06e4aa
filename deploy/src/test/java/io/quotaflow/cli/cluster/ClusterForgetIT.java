package io.quotaflow.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.fixtures.CommandRun;
import io.quotaflow.schemas.MarkerKind;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodPhase;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.schemas.SourceMarker;
import io.quotaflow.topics.ClusterPartitioner;
import io.quotaflow.topics.SourceMarkers;
import io.quotaflow.topics.Topic;
import io.quotaflow.topics.TopicCatalogue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code quotaflow cluster forget} on a real broker (issue 40.12): it refuses while connectors
 * still write heartbeats of the cluster, and otherwise writes, on each partition holding the
 * cluster's records, a FORGOTTEN marker followed by a tombstone of each of its live objects,
 * leaving other clusters alone.
 */
@Tag("system")
@ExtendWith(EmbeddedKafkaExtension.class)
class ClusterForgetIT {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

  private EmbeddedKafkaBroker broker;
  private String prefix;
  private TopicCatalogue topics;

  @BeforeEach
  void createTopics(final EmbeddedKafkaBroker broker) throws Exception {
    this.broker = broker;
    prefix = "forget-" + UUID.randomUUID().toString().substring(0, 8) + ".";
    topics = TopicCatalogue.withPrefix(prefix);
    try (Admin admin =
        Admin.create(
            Map.<String, Object>of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
      admin
          .createTopics(topics.all().stream().map(topic -> topic.newTopic(2, (short) 1)).toList())
          .all()
          .get();
    }
  }

  @Test
  void refusesWhileConnectorsWriteHeartbeatsOfTheClusterAndForgetsItWithForce() throws Exception {
    send(topics.pods(), new PodKey("east", "apps", "a"), pod("uid-a"));
    send(topics.pods(), new PodKey("east", "apps", "b"), pod("uid-b"));
    send(topics.pods(), new PodKey("east", "apps", "b"), null);
    send(topics.pods(), new PodKey("west", "apps", "c"), pod("uid-c"));
    marker(topics.pods(), SourceMarkers.podKey("east"), SourceMarkers.heartbeat("east", T0, "c"));
    final int before = east(topics.pods()).size();
    final int all = records(topics.pods()).size();

    final CommandRun refused = forget("east");

    assertThat(refused.exitCode()).as(refused.err()).isEqualTo(1);
    assertThat(refused.err())
        .startsWith("forget: connectors wrote a heartbeat of cluster 'east' ")
        .contains("--force");
    assertThat(records(topics.pods())).hasSize(all);

    final CommandRun forced = forget("east", "--force");

    assertThat(forced.exitCode()).as(forced.err()).isZero();
    assertThat(forced.out()).contains("cluster east forgotten: 1 tombstones written");
    assertThat(records(topics.pods())).hasSize(all + 2);
    final List<ConsumerRecord<byte[], byte[]>> east = east(topics.pods());
    final List<ConsumerRecord<byte[], byte[]>> written = east.subList(before, east.size());
    assertThat(written).hasSize(2);
    assertThat(markerKind(written.get(0))).contains(MarkerKind.FORGOTTEN);
    assertThat(key(topics.pods(), written.get(0))).isEqualTo(SourceMarkers.podKey("east"));
    assertThat(key(topics.pods(), written.get(1))).isEqualTo(new PodKey("east", "apps", "a"));
    assertThat(written.get(1).value()).isNull();
    assertThat(written.get(1).partition()).isEqualTo(written.get(0).partition());
  }

  @Test
  void aClusterNoConnectorWritesIsForgottenWithoutForce() throws Exception {
    send(topics.quotas(), new QuotaKey("east", "team-a"), quota());
    send(topics.quotas(), new QuotaKey("west", "team-a"), quota());

    final CommandRun run = forget("east");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(records(topics.quotas())).hasSize(4);
    final List<ConsumerRecord<byte[], byte[]>> east = east(topics.quotas());
    assertThat(east).hasSize(3);
    assertThat(markerKind(east.get(1))).contains(MarkerKind.FORGOTTEN);
    assertThat(key(topics.quotas(), east.get(2))).isEqualTo(new QuotaKey("east", "team-a"));
    assertThat(east.get(2).value()).isNull();
  }

  @Test
  void aNameWithoutRecordsIsAnError() {
    final CommandRun run = forget("nowhere");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("no record of cluster 'nowhere' in the input topics");
  }

  private CommandRun forget(final String... args) {
    final List<String> all =
        new ArrayList<>(
            List.of(
                "cluster",
                "forget",
                "--bootstrap-servers",
                broker.bootstrapServers(),
                "--topic-prefix",
                prefix));
    all.addAll(List.of(args));
    return CommandRun.of(all.toArray(String[]::new));
  }

  private static PodState pod(final String uid) {
    return PodState.newBuilder()
        .setUid(uid)
        .setPhase(PodPhase.RUNNING)
        .setNodeName("n1")
        .setRequests(Map.of("cpu", 500L))
        .setCreationTime(T0)
        .build();
  }

  private static QuotaSpec quota() {
    return QuotaSpec.newBuilder()
        .setMin(Map.of("cpu", 1_000L))
        .setMax(Map.of("cpu", 2_000L))
        .build();
  }

  private <K, V> void send(final Topic<K, V> topic, final K key, final V value) throws Exception {
    send(
        topic.name(),
        topic.keySerializer().serialize(topic.name(), key),
        value == null ? null : topic.valueSerializer().serialize(topic.name(), value),
        new RecordHeaders());
  }

  private <K> void marker(final Topic<K, ?> topic, final K key, final SourceMarker marker)
      throws Exception {
    final RecordHeaders headers = new RecordHeaders();
    headers.add(SourceMarkers.header(marker));
    send(topic.name(), topic.keySerializer().serialize(topic.name(), key), null, headers);
  }

  /** Sends as the connectors do: every record of a cluster on its partition. */
  private void send(
      final String topic, final byte[] key, final byte[] value, final RecordHeaders headers)
      throws Exception {
    final int partition = ClusterPartitioner.partitionOf(ClusterPartitioner.clusterOf(key), 2);
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(
            Map.<String, Object>of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
            new ByteArraySerializer(),
            new ByteArraySerializer())) {
      producer.send(new ProducerRecord<>(topic, partition, key, value, headers)).get();
    }
  }

  /** Every record of {@code topic}, partition by partition, each in offset order. */
  private List<ConsumerRecord<byte[], byte[]>> records(final Topic<?, ?> topic) {
    final Map<String, Object> config = new HashMap<>();
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      final List<TopicPartition> partitions =
          List.of(new TopicPartition(topic.name(), 0), new TopicPartition(topic.name(), 1));
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      final Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
      final List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>();
      while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
        consumer.poll(Duration.ofMillis(200)).forEach(all::add);
      }
      all.sort(
          (a, b) ->
              a.partition() != b.partition()
                  ? Integer.compare(a.partition(), b.partition())
                  : Long.compare(a.offset(), b.offset()));
      return all;
    }
  }

  /** The records of cluster east on {@code topic}, which are all on one partition, in order. */
  private List<ConsumerRecord<byte[], byte[]>> east(final Topic<?, ?> topic) {
    return records(topic).stream()
        .filter(record -> ClusterPartitioner.clusterOf(record.key()).equals("east"))
        .toList();
  }

  private static Optional<MarkerKind> markerKind(final ConsumerRecord<byte[], byte[]> record) {
    return SourceMarkers.read(record.headers()).map(SourceMarker::getKind);
  }

  private static <K> K key(final Topic<K, ?> topic, final ConsumerRecord<byte[], byte[]> record) {
    return topic.keyDeserializer().deserialize(topic.name(), record.key());
  }
}
