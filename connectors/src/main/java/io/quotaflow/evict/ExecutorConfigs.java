package io.quotaflow.evict;

import io.quotaflow.cluster.ConsumerConfigs;
import io.quotaflow.cluster.GroupMembership;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The Kafka client settings of the eviction executor: its commands' consumer, results' producer and
 * ledger.
 */
final class ExecutorConfigs {
  private ExecutorConfigs() {}

  static Map<String, Object> consumerConfig(
      final Map<String, Object> kafka, final EvictionSettings settings) {
    final Map<String, Object> config =
        ConsumerConfigs.readCommitted(GroupMembership.consumerGroup(kafka), settings.groupId());
    // The commands go to the clusters' workers: a poll is quick whatever they wait for.
    config.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 100);
    config.putIfAbsent(
        ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, (int) TimeUnit.MINUTES.toMillis(10));
    return config;
  }

  static Map<String, Object> producerConfig(
      final Map<String, Object> kafka, final EvictionSettings settings) {
    final Map<String, Object> config = new HashMap<>(kafka);
    // The same id for whichever replica leads, so that a new leader's producer fences the old
    // leader's (its transaction aborted, its late commit refused) instead of both writing results.
    config.putIfAbsent(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId(settings));
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, settings.groupId() + "-producer");
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    return config;
  }

  /**
   * The executor's {@code transactional.id} unless the Kafka settings give one: its consumer group
   * ({@code eviction.group.id}) with {@code -results}, the same on every replica of a Deployment,
   * never the pod's name.
   */
  static String transactionalId(final EvictionSettings settings) {
    return settings.groupId() + "-results";
  }

  static Map<String, Object> ledgerConfig(
      final Map<String, Object> kafka, final EvictionSettings settings) {
    final Map<String, Object> config = new HashMap<>(kafka);
    config.remove(ConsumerConfig.GROUP_ID_CONFIG);
    config.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    config.remove(ConsumerConfig.GROUP_PROTOCOL_CONFIG);
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
    config.put(ConsumerConfig.CLIENT_ID_CONFIG, settings.groupId() + "-ledger");
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    return config;
  }
}
