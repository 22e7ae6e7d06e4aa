package io.quotaflow.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@Tag("smoke")
@ExtendWith(EmbeddedKafkaExtension.class)
class EmbeddedKafkaBrokerIT {

  @Test
  void recordProducedIsConsumed(final EmbeddedKafkaBroker broker) throws Exception {
    final String topic = KafkaClients.uniqueTopic("plain");

    try (KafkaProducer<String, String> producer = KafkaClients.producer(broker)) {
      producer.send(new ProducerRecord<>(topic, "team-a", "hello")).get();
    }

    final List<ConsumerRecord<String, String>> records =
        KafkaClients.readCommitted(broker, topic, 1);
    assertThat(records)
        .singleElement()
        .satisfies(
            record -> {
              assertThat(record.key()).isEqualTo("team-a");
              assertThat(record.value()).isEqualTo("hello");
            });
  }

  @Test
  void transactionalProducerCommits(final EmbeddedKafkaBroker broker) {
    final String topic = KafkaClients.uniqueTopic("transactional");

    try (KafkaProducer<String, String> producer =
        KafkaClients.transactionalProducer(broker, topic + "-tx")) {
      producer.initTransactions();
      producer.beginTransaction();
      producer.send(new ProducerRecord<>(topic, "team-a", "first"));
      producer.send(new ProducerRecord<>(topic, "team-b", "second"));
      producer.commitTransaction();
    }

    assertThat(KafkaClients.readCommitted(broker, topic, 2))
        .extracting(ConsumerRecord::value)
        .containsExactly("first", "second");
  }

  @Test
  void fixedPortThatIsTakenFailsWithAnErrorNamingThePort(@TempDir final Path dir)
      throws IOException {
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
      final int port = taken.getLocalPort();
      final EmbeddedKafkaBroker broker =
          EmbeddedKafkaBroker.builder().port(port).dataDir(dir.resolve("kafka")).build();

      assertThatThrownBy(broker::start)
          .isInstanceOf(BrokerPortInUseException.class)
          .hasMessageContaining("port " + port)
          .hasMessageContaining("already in use");
    }
  }

  @Test
  void dataDirectoryKeepsTopicsAcrossRestartsOnAFixedPort(@TempDir final Path dir)
      throws ExecutionException, InterruptedException {
    final Path dataDir = dir.resolve("kafka");
    final int port = Ports.free(1).get(0);
    final String topic = KafkaClients.uniqueTopic("durable");

    try (EmbeddedKafkaBroker first =
            EmbeddedKafkaBroker.builder().dataDir(dataDir).port(port).build().start();
        KafkaProducer<String, String> producer = KafkaClients.producer(first)) {
      assertThat(first.bootstrapServers()).isEqualTo("127.0.0.1:" + port);
      producer.send(new ProducerRecord<>(topic, "team-a", "kept")).get();
    }
    assertThat(dataDir).isDirectory();

    try (EmbeddedKafkaBroker second =
        EmbeddedKafkaBroker.builder().dataDir(dataDir).port(port).build().start()) {
      assertThat(KafkaClients.readCommitted(second, topic, 1))
          .extracting(ConsumerRecord::value)
          .containsExactly("kept");
    }
  }

  @Test
  void closeDeletesTheTemporaryDataDirectoryAndCanBeRepeated() {
    final EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().build().start();
    final Path dataDir = broker.dataDir();
    assertThat(dataDir).isDirectory();

    broker.close();
    broker.close();

    assertThat(Files.exists(dataDir)).isFalse();
  }
}
