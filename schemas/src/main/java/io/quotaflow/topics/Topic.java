package io.quotaflow.topics;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * One topic of quotaflow: its name, the serdes of its keys and values, and how it is kept. Take
 * every topic name and serde from here (via {@link TopicCatalogue}); never spell them elsewhere.
 *
 * @param name full topic name, prefix included
 * @param keySerde serde for keys, configured as a key serde
 * @param valueSerde serde for values, configured as a value serde
 * @param cleanupPolicy compact or delete
 * @param configs recommended topic configs, {@code cleanup.policy} included
 */
public record Topic<K, V>(
    String name,
    Serde<K> keySerde,
    Serde<V> valueSerde,
    CleanupPolicy cleanupPolicy,
    Map<String, String> configs) {

  /** Validates the fields and makes {@code configs} an immutable map that states the policy. */
  public Topic {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(keySerde, "keySerde");
    Objects.requireNonNull(valueSerde, "valueSerde");
    Objects.requireNonNull(cleanupPolicy, "cleanupPolicy");
    final Map<String, String> all = new HashMap<>(Objects.requireNonNull(configs, "configs"));
    final String stated =
        all.putIfAbsent(TopicConfig.CLEANUP_POLICY_CONFIG, cleanupPolicy.configValue());
    if (stated != null && !stated.equals(cleanupPolicy.configValue())) {
      throw new IllegalArgumentException(
          name + ": configs say cleanup.policy=" + stated + " but the policy is " + cleanupPolicy);
    }
    configs = Map.copyOf(all);
  }

  /** The serializer for keys. */
  public Serializer<K> keySerializer() {
    return keySerde.serializer();
  }

  /** The deserializer for keys. */
  public Deserializer<K> keyDeserializer() {
    return keySerde.deserializer();
  }

  /** The serializer for values. */
  public Serializer<V> valueSerializer() {
    return valueSerde.serializer();
  }

  /** The deserializer for values. */
  public Deserializer<V> valueDeserializer() {
    return valueSerde.deserializer();
  }

  /** The value of one recommended config, if this topic recommends one. */
  public Optional<String> config(final String key) {
    return Optional.ofNullable(configs.get(key));
  }

  /** A request to create this topic with its recommended configs. */
  public NewTopic newTopic(final int partitions, final short replicationFactor) {
    return new NewTopic(name, partitions, replicationFactor).configs(configs);
  }

  @Override
  public String toString() {
    return name;
  }
}
