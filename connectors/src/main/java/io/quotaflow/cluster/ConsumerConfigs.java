package io.quotaflow.cluster;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Consumer settings the connectors that consume the engine's output share. */
public final class ConsumerConfigs {

  private ConsumerConfigs() {}

  /**
   * A consumer of group {@code groupId} over the client settings {@code kafka}: it reads only
   * committed records (the engine writes in transactions), commits its offsets itself, starts from
   * the earliest record, never creates topics and hands over raw bytes (the connector decodes them,
   * so that a record it cannot read does not stop the consumer). The client id defaults to the
   * group. A new map the caller may add to.
   */
  public static Map<String, Object> readCommitted(
      final Map<String, Object> kafka, final String groupId) {
    final Map<String, Object> config = new HashMap<>(kafka);
    config.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
    config.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, groupId);
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    return config;
  }
}
