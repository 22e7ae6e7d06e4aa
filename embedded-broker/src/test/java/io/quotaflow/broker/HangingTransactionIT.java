package io.quotaflow.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transaction left open in its partitions after its coordinator forgot it (docs/upstream/kafka-
 * txn-markers-skipped-at-restart.md: a restarted broker completes the transactions it aborts at
 * once without writing their markers). Here the coordinator forgets it for certain: the transaction
 * log is removed while the broker is down. Without the restarted broker's watch, the group's
 * committed offsets stay unstable for good and read-committed consumers stop at the open
 * transaction.
 */
@Tag("fault")
class HangingTransactionIT {

  private static final String GROUP = "hanging-group";

  @Test
  void aTransactionItsCoordinatorForgotIsAbortedAfterARestart(@TempDir final Path dir)
      throws Exception {
    final Path dataDir = dir.resolve("kafka");
    final int port = Ports.free(1).get(0);
    final String topic = KafkaClients.uniqueTopic("hanging");
    final TopicPartition partition = new TopicPartition(topic, 0);

    final EmbeddedKafkaBroker first =
        EmbeddedKafkaBroker.builder().dataDir(dataDir).port(port).build().start();
    final KafkaProducer<String, String> producer =
        KafkaClients.transactionalProducer(first, topic + "-tx");
    producer.initTransactions();
    producer.beginTransaction();
    producer.send(new ProducerRecord<>(topic, "team-a", "before"));
    producer.commitTransaction();
    producer.beginTransaction();
    producer.send(new ProducerRecord<>(topic, "team-a", "never committed"));
    producer.sendOffsetsToTransaction(
        Map.of(partition, new OffsetAndMetadata(1)), new ConsumerGroupMetadata(GROUP));
    producer.flush();
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", first.bootstrapServers()))) {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  openTransactions(admin, partition) == 1
                      && openTransactions(admin, new TopicPartition("__consumer_offsets", 0)) == 1);
    }
    first.close();
    producer.close(Duration.ZERO);
    deleteTree(dataDir.resolve("kafka-logs").resolve("__transaction_state-0"));

    try (EmbeddedKafkaBroker second =
        EmbeddedKafkaBroker.builder().dataDir(dataDir).port(port).build().start()) {
      try (KafkaConsumer<String, String> member = readCommittedMember(second)) {
        // Asks with require_stable, as a Kafka Streams task does before it processes anything.
        final Map<TopicPartition, OffsetAndMetadata> committed =
            member.committed(Set.of(partition), Duration.ofSeconds(45));
        assertThat(committed.get(partition)).as("the aborted transaction's offset").isNull();
      }
      try (KafkaProducer<String, String> after = KafkaClients.producer(second)) {
        after.send(new ProducerRecord<>(topic, "team-a", "after")).get();
      }
      assertThat(KafkaClients.readCommitted(second, topic, 2))
          .extracting(ConsumerRecord::value)
          .containsExactly("before", "after");
    }
  }

  private static int openTransactions(final Admin admin, final TopicPartition partition)
      throws Exception {
    return (int)
        admin
            .describeProducers(List.of(partition))
            .partitionResult(partition)
            .get()
            .activeProducers()
            .stream()
            .filter(p -> p.currentTransactionStartOffset().isPresent())
            .count();
  }

  private static KafkaConsumer<String, String> readCommittedMember(
      final EmbeddedKafkaBroker broker) {
    return new KafkaConsumer<>(
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            broker.bootstrapServers(),
            ConsumerConfig.GROUP_ID_CONFIG,
            GROUP,
            ConsumerConfig.ISOLATION_LEVEL_CONFIG,
            IsolationLevel.READ_COMMITTED.toString()),
        new StringDeserializer(),
        new StringDeserializer());
  }

  private static void deleteTree(final Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (final Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
