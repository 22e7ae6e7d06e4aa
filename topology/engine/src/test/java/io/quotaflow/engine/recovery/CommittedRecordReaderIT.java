package io.quotaflow.engine.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The reader behind {@link InputResumeAudit} on a real broker: transaction markers and aborted
 * records in a range are not committed records, so a task resuming past them skipped nothing.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class CommittedRecordReaderIT {
  @Test
  void markersAndAbortedRecordsAreNotCommittedRecords(final EmbeddedKafkaBroker broker)
      throws Exception {
    final String topic = "reader-" + UUID.randomUUID();
    final TopicPartition p0 = new TopicPartition(topic, 0);
    final TopicPartition p1 = new TopicPartition(topic, 1);
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()));
        KafkaProducer<String, String> producer =
            new KafkaProducer<>(
                Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                    broker.bootstrapServers(),
                    ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                    "reader-" + UUID.randomUUID()),
                new StringSerializer(),
                new StringSerializer())) {
      admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
      producer.initTransactions();
      // Partition 0: 0 committed, 1 its commit marker, 2 aborted, 3 its abort marker, 4 committed,
      // 5 its commit marker.
      transaction(producer, p0, true);
      transaction(producer, p0, false);
      transaction(producer, p0, true);
      // Partition 1: 0 committed, 1 its marker.
      transaction(producer, p1, true);

      final Map<TopicPartition, Long> found =
          new CommittedRecordReader(Map.of("bootstrap.servers", broker.bootstrapServers()))
              .firstIn(
                  Map.of(
                      p0, new InputResumeAudit.Range(1, 4),
                      p1, new InputResumeAudit.Range(0, 2)));
      assertThat(found).isEqualTo(Map.of(p1, 0L));

      assertThat(
              new CommittedRecordReader(Map.of("bootstrap.servers", broker.bootstrapServers()))
                  .firstIn(Map.of(p0, new InputResumeAudit.Range(1, 5))))
          .isEqualTo(Map.of(p0, 4L));
      assertThat(
              new CommittedRecordReader(Map.of("bootstrap.servers", broker.bootstrapServers()))
                  .firstIn(Map.of(p0, new InputResumeAudit.Range(5, 6))))
          .isEmpty();
    }
  }

  private static void transaction(
      final KafkaProducer<String, String> producer,
      final TopicPartition partition,
      final boolean commit)
      throws Exception {
    producer.beginTransaction();
    producer.send(new ProducerRecord<>(partition.topic(), partition.partition(), "k", "v")).get();
    if (commit) {
      producer.commitTransaction();
    } else {
      producer.abortTransaction();
    }
  }
}
