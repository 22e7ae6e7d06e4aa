package io.quotaflow.broker;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A process that starts a broker on a data directory, leaves a transaction open in a topic and in
 * {@code __consumer_offsets}, prints {@value #OPEN} and waits to be killed (-9), as a crashed
 * {@code quotaflow local} does. Arguments: data directory, port, topic, transactional id.
 */
public final class OpenTransactionProcess {

  static final String OPEN = "transaction open";

  private OpenTransactionProcess() {}

  public static void main(final String[] args) throws Exception {
    final String topic = args[2];
    final EmbeddedKafkaBroker broker =
        EmbeddedKafkaBroker.builder()
            .dataDir(Path.of(args[0]))
            .port(Integer.parseInt(args[1]))
            .abortHangingTransactions(false)
            .build()
            .start();
    final KafkaProducer<String, String> producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                broker.bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                args[3],
                ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
                1_000),
            new StringSerializer(),
            new StringSerializer());
    producer.initTransactions();
    producer.beginTransaction();
    producer.send(new ProducerRecord<>(topic, "team-a", "open")).get();
    producer.sendOffsetsToTransaction(
        Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(1)),
        new ConsumerGroupMetadata("skipped-group"));
    producer.flush();
    System.out.println(OPEN);
    System.out.flush();
    Thread.sleep(Duration.ofMinutes(5).toMillis());
  }
}
