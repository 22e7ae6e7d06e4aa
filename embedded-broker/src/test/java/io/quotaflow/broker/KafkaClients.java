package io.quotaflow.broker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;

/** Test fixtures: string producers and consumers against a broker. */
final class KafkaClients {

  private KafkaClients() {}

  /** A topic name no other test uses, so tests can share one broker. */
  static String uniqueTopic(final String prefix) {
    return prefix + "-" + UUID.randomUUID();
  }

  static KafkaProducer<String, String> producer(final EmbeddedKafkaBroker broker) {
    return new KafkaProducer<>(
        Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
        new StringSerializer(),
        new StringSerializer());
  }

  static KafkaProducer<String, String> transactionalProducer(
      final EmbeddedKafkaBroker broker, final String transactionalId) {
    return new KafkaProducer<>(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            broker.bootstrapServers(),
            ProducerConfig.TRANSACTIONAL_ID_CONFIG,
            transactionalId),
        new StringSerializer(),
        new StringSerializer());
  }

  /** Reads committed records of {@code topic} from the start until {@code count} have arrived. */
  static List<ConsumerRecord<String, String>> readCommitted(
      final EmbeddedKafkaBroker broker, final String topic, final int count) {
    final Map<String, Object> config =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            broker.bootstrapServers(),
            ConsumerConfig.GROUP_ID_CONFIG,
            "reader-" + UUID.randomUUID(),
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
            "earliest",
            ConsumerConfig.ISOLATION_LEVEL_CONFIG,
            IsolationLevel.READ_COMMITTED.toString());
    final List<ConsumerRecord<String, String>> records = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
      consumer.subscribe(List.of(topic));
      Awaitility.await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> {
                consumer.poll(Duration.ofMillis(100)).forEach(records::add);
                return records.size() >= count;
              });
    }
    return records;
  }
}
