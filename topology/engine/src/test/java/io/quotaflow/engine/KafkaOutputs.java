package io.quotaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.engine.convert.OutputRecords;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.topics.Topic;
import io.quotaflow.topics.TopicCatalogue;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads the engine's output topics from a real broker with {@code read_committed}, as the
 * connectors do: only what the engine committed is ever seen.
 */
public final class KafkaOutputs implements AutoCloseable {
  private final TopicCatalogue topics;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Map<QuotaKey, GroupRuntime> runtime = new HashMap<>();
  private final List<ConsumerRecord<PodKey, EvictionCommand>> evictions = new ArrayList<>();
  private final List<ConsumerRecord<byte[], byte[]>> rejected = new ArrayList<>();

  public KafkaOutputs(final String bootstrapServers, final TopicCatalogue topics) {
    this.topics = topics;
    this.consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                IsolationLevel.READ_COMMITTED.toString().toLowerCase(Locale.ROOT),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer());
    final List<TopicPartition> partitions = new ArrayList<>();
    for (final Topic<?, ?> topic :
        List.of(topics.runtime(), topics.evictions(), topics.rejected())) {
      consumer
          .partitionsFor(topic.name())
          .forEach(info -> partitions.add(new TopicPartition(info.topic(), info.partition())));
    }
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
  }

  /** Reads what arrived since the last call. */
  public KafkaOutputs poll() {
    for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
      if (record.topic().equals(topics.runtime().name())) {
        final QuotaKey key =
            topics.runtime().keyDeserializer().deserialize(record.topic(), record.key());
        final GroupRuntime value =
            topics.runtime().valueDeserializer().deserialize(record.topic(), record.value());
        if (value == null) {
          runtime.remove(key);
        } else {
          runtime.put(key, value);
        }
      } else if (record.topic().equals(topics.evictions().name())) {
        evictions.add(
            new ConsumerRecord<>(
                record.topic(),
                record.partition(),
                record.offset(),
                topics.evictions().keyDeserializer().deserialize(record.topic(), record.key()),
                topics
                    .evictions()
                    .valueDeserializer()
                    .deserialize(record.topic(), record.value())));
      } else {
        rejected.add(record);
      }
    }
    return this;
  }

  /** The latest runtime record of each group of {@code cluster}, as statuses. */
  /**
   * Asserts that each cluster's runtimes read so far equal the core's full computation on {@code
   * model}'s inputs.
   */
  public void assertTablesMatch(final InputModel model, final List<String> clusters) {
    for (final String cluster : clusters) {
      assertThat(table(cluster))
          .as(cluster)
          .isEqualTo(model.expected(cluster, QuotaOptions.DEFAULTS));
    }
  }

  public Map<String, GroupStatus> table(final String cluster) {
    final Map<String, GroupStatus> table = new TreeMap<>();
    runtime.forEach(
        (key, value) -> {
          if (key.getCluster().equals(cluster)) {
            table.put(key.getName(), OutputRecords.status(key.getName(), value));
          }
        });
    return table;
  }

  public List<ConsumerRecord<PodKey, EvictionCommand>> evictions() {
    return List.copyOf(evictions);
  }

  /** The ids of the eviction commands read so far, in the order read. */
  public List<String> evictionIds() {
    return evictions.stream().map(record -> record.value().getId()).toList();
  }

  public List<ConsumerRecord<byte[], byte[]>> rejected() {
    return List.copyOf(rejected);
  }

  @Override
  public void close() {
    consumer.close();
  }
}
