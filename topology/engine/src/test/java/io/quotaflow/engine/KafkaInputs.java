package io.quotaflow.engine;

import io.quotaflow.schemas.DraKey;
import io.quotaflow.schemas.EvictionResult;
import io.quotaflow.schemas.NodeKey;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.schemas.SourceMarker;
import io.quotaflow.topics.ClusterPartitioner;
import io.quotaflow.topics.SourceMarkers;
import io.quotaflow.topics.Topic;
import io.quotaflow.topics.TopicCatalogue;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Writes input records to a real broker, as the connectors would, and keeps the {@link InputModel}
 * of what was written. As the connectors do by default, every record of a cluster goes to the
 * partition {@link ClusterPartitioner} gives it, in order; {@link #placedByKey} writes them as
 * other producers would, by key (for an engine with {@code inputs.partitioned.by.cluster=false}).
 */
public final class KafkaInputs implements AutoCloseable {
  private final TopicCatalogue topics;
  private final KafkaProducer<byte[], byte[]> producer;
  private final InputModel model = new InputModel();

  public KafkaInputs(final String bootstrapServers, final TopicCatalogue topics) {
    this(
        bootstrapServers,
        topics,
        Map.of(ProducerConfig.PARTITIONER_CLASS_CONFIG, ClusterPartitioner.class.getName()));
  }

  /** Inputs placed by key: the producer's default partitioner. */
  public static KafkaInputs placedByKey(
      final String bootstrapServers, final TopicCatalogue topics) {
    return new KafkaInputs(bootstrapServers, topics, Map.of());
  }

  /** Inputs written by a producer with {@code more} producer settings (e.g. a partitioner). */
  public KafkaInputs(
      final String bootstrapServers, final TopicCatalogue topics, final Map<String, Object> more) {
    this.topics = topics;
    final Map<String, Object> config = new HashMap<>(more);
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    // Topics are written right after their creation, while leadership still settles; an
    // idempotent producer then sometimes hits OUT_OF_ORDER_SEQUENCE_NUMBER and retries until its
    // delivery timeout. One request in flight keeps each partition in order without idempotence,
    // and a retried duplicate of a state record is harmless.
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
    config.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
    this.producer =
        new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
  }

  public InputModel model() {
    return model;
  }

  public KafkaInputs putPod(
      final String cluster, final String namespace, final Inputs.PodBuilder pod) {
    return putPod(cluster, namespace, pod.name(), pod.build());
  }

  public KafkaInputs putPod(
      final String cluster, final String namespace, final String name, final PodState pod) {
    send(
        topics.pods().name(),
        topics.pods().keySerializer().serialize(null, new PodKey(cluster, namespace, name)),
        topics.pods().valueSerializer().serialize(null, pod));
    model.putPod(cluster, namespace, name, pod);
    return this;
  }

  public KafkaInputs deletePod(final String cluster, final String namespace, final String name) {
    send(
        topics.pods().name(),
        topics.pods().keySerializer().serialize(null, new PodKey(cluster, namespace, name)),
        null);
    model.deletePod(cluster, namespace, name);
    return this;
  }

  public KafkaInputs putQuota(final String cluster, final String name, final QuotaSpec spec) {
    send(
        topics.quotas().name(),
        topics.quotas().keySerializer().serialize(null, new QuotaKey(cluster, name)),
        topics.quotas().valueSerializer().serialize(null, spec));
    model.putQuota(cluster, name, spec);
    return this;
  }

  public KafkaInputs deleteQuota(final String cluster, final String name) {
    send(
        topics.quotas().name(),
        topics.quotas().keySerializer().serialize(null, new QuotaKey(cluster, name)),
        null);
    model.deleteQuota(cluster, name);
    return this;
  }

  public KafkaInputs putNode(final String cluster, final String name, final NodeState node) {
    send(
        topics.nodes().name(),
        topics.nodes().keySerializer().serialize(null, new NodeKey(cluster, name)),
        topics.nodes().valueSerializer().serialize(null, node));
    model.putNode(cluster, name, node);
    return this;
  }

  /** A DRA object (null: deleted) on its topic of the catalogue; not part of the model. */
  public <V> KafkaInputs putDra(final Topic<DraKey, V> topic, final DraKey key, final V value) {
    send(
        topic.name(),
        topic.keySerializer().serialize(null, key),
        value == null ? null : topic.valueSerializer().serialize(null, value));
    return this;
  }

  /** A result on eviction-results.v1, keyed by the pod, as the executor writes it. */
  public KafkaInputs putEvictionResult(
      final String cluster,
      final String namespace,
      final String name,
      final EvictionResult result) {
    send(
        topics.evictionResults().name(),
        topics
            .evictionResults()
            .keySerializer()
            .serialize(null, new PodKey(cluster, namespace, name)),
        topics.evictionResults().valueSerializer().serialize(null, result));
    return this;
  }

  /**
   * Bytes as they are, e.g. garbage, on partition 0 (no partitioner can read a cluster from them);
   * not part of the model.
   */
  public KafkaInputs raw(final String topic, final byte[] key, final byte[] value) {
    producer.send(new ProducerRecord<>(topic, 0, key, value));
    return this;
  }

  /**
   * A connectors' heartbeat of {@code cluster} at {@code at} on pods, quotas and nodes, as the
   * connectors write it: a record without a value whose header carries the marker.
   */
  public KafkaInputs heartbeat(final String cluster, final Instant at) {
    final SourceMarker marker = SourceMarkers.heartbeat(cluster, at, "test");
    final Headers headers = new RecordHeaders().add(SourceMarkers.header(marker));
    producer.send(
        new ProducerRecord<>(
            topics.pods().name(),
            null,
            at.toEpochMilli(),
            topics.pods().keySerializer().serialize(null, SourceMarkers.podKey(cluster)),
            null,
            headers));
    producer.send(
        new ProducerRecord<>(
            topics.quotas().name(),
            null,
            at.toEpochMilli(),
            topics.quotas().keySerializer().serialize(null, SourceMarkers.quotaKey(cluster)),
            null,
            headers));
    producer.send(
        new ProducerRecord<>(
            topics.nodes().name(),
            null,
            at.toEpochMilli(),
            topics.nodes().keySerializer().serialize(null, SourceMarkers.nodeKey(cluster)),
            null,
            headers));
    return this;
  }

  /** Waits until everything sent is acknowledged. */
  public void flush() {
    producer.flush();
  }

  private void send(final String topic, final byte[] key, final byte[] value) {
    producer.send(new ProducerRecord<>(topic, key, value));
  }

  @Override
  public void close() {
    producer.close();
  }
}
