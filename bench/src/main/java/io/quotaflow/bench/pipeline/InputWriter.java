package io.quotaflow.bench.pipeline;

import io.quotaflow.schemas.NodeKey;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.ProfileKey;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.schemas.QuotaProfileSpec;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.schemas.SourceMarker;
import io.quotaflow.topics.ClusterPartitioner;
import io.quotaflow.topics.SourceMarkers;
import io.quotaflow.topics.TopicCatalogue;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes input records with the catalogue's serializers, as the connectors would. One request in
 * flight per connection keeps each object's versions in order; idempotence is off because freshly
 * created topics can make an idempotent producer retry out-of-order sequences until it times out.
 */
final class InputWriter implements AutoCloseable {
  private final TopicCatalogue topics;
  private final KafkaProducer<PodKey, PodState> pods;
  private final KafkaProducer<QuotaKey, QuotaSpec> quotas;
  private final KafkaProducer<NodeKey, NodeState> nodes;
  private final Map<String, Object> settings;
  // Only the soak writes profiles (markers): made on first use, so other runs have no idle client.
  private KafkaProducer<ProfileKey, QuotaProfileSpec> profiles;

  /**
   * @param byCluster whether every record of a cluster goes to one partition ({@link
   *     ClusterPartitioner}, as connect's {@code source.partition.by.cluster}) instead of by key
   */
  InputWriter(
      final String bootstrapServers,
      final TopicCatalogue topics,
      final int lingerMs,
      final boolean byCluster) {
    this.topics = topics;
    final Map<String, Object> settings = new HashMap<>();
    settings.putAll(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers,
            ProducerConfig.ACKS_CONFIG,
            "all",
            ProducerConfig.LINGER_MS_CONFIG,
            lingerMs,
            ProducerConfig.BATCH_SIZE_CONFIG,
            256 * 1024,
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
            false,
            ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION,
            1));
    if (byCluster) {
      settings.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, ClusterPartitioner.class.getName());
    }
    this.settings = settings;
    this.pods =
        new KafkaProducer<>(
            settings, topics.pods().keySerializer(), topics.pods().valueSerializer());
    this.quotas =
        new KafkaProducer<>(
            settings, topics.quotas().keySerializer(), topics.quotas().valueSerializer());
    this.nodes =
        new KafkaProducer<>(
            settings, topics.nodes().keySerializer(), topics.nodes().valueSerializer());
  }

  void pod(final Workload.PodEvent event) {
    pods.send(new ProducerRecord<>(topics.pods().name(), event.key(), event.value()));
  }

  /** A pod's new state, or its delete ({@code value} null, a tombstone). */
  void pod(final PodKey key, final PodState value) {
    pods.send(new ProducerRecord<>(topics.pods().name(), key, value));
  }

  /**
   * A connectors' marker (see {@link SourceMarker}) of the marker's cluster on every input topic
   * (pods, quotas, nodes, profiles), as each kind's publisher writes one: the kind's marker key, no
   * value, the marker in the header.
   */
  void marker(final SourceMarker marker) {
    final String cluster = marker.getCluster();
    final var header = List.of(SourceMarkers.header(marker));
    pods.send(
        new ProducerRecord<>(
            topics.pods().name(), null, SourceMarkers.podKey(cluster), null, header));
    quotas.send(
        new ProducerRecord<>(
            topics.quotas().name(), null, SourceMarkers.quotaKey(cluster), null, header));
    nodes.send(
        new ProducerRecord<>(
            topics.nodes().name(), null, SourceMarkers.nodeKey(cluster), null, header));
    if (profiles == null) {
      profiles =
          new KafkaProducer<>(
              settings, topics.profiles().keySerializer(), topics.profiles().valueSerializer());
    }
    profiles.send(
        new ProducerRecord<>(
            topics.profiles().name(), null, SourceMarkers.profileKey(cluster), null, header));
  }

  void quota(final QuotaKey key, final QuotaSpec value) {
    quotas.send(new ProducerRecord<>(topics.quotas().name(), key, value));
  }

  void node(final NodeKey key, final NodeState value) {
    nodes.send(new ProducerRecord<>(topics.nodes().name(), key, value));
  }

  /** Waits until every record sent is acknowledged. */
  void flush() {
    quotas.flush();
    nodes.flush();
    pods.flush();
    if (profiles != null) {
      profiles.flush();
    }
  }

  @Override
  public void close() {
    if (profiles != null) {
      profiles.close();
    }
    pods.close();
    quotas.close();
    nodes.close();
  }
}
