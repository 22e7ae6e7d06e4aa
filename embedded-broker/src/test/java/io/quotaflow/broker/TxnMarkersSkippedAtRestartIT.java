package io.quotaflow.broker;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The reproducer of docs/upstream/kafka-txn-markers-skipped-at-restart.md, for Kafka's developers
 * rather than quotaflow's suite (tag {@code upstream}, left out by default; run it with {@code
 * -Dit.groups=upstream -Dit.excluded.groups=}). A process with a single KRaft broker is killed (-9)
 * while a transaction is open in a topic and in {@code __consumer_offsets}; the transaction times
 * out while the broker is down. The restarted broker's transaction coordinator aborts it at once,
 * before the broker knows the partitions' leader again, skips their markers as if the partitions
 * had been deleted, and completes the transaction: it stays open in both partitions for good.
 * Whether the coordinator completes it or resigns first (and sends the markers again after) is a
 * race, so the test restarts up to eight times.
 */
@Tag("upstream")
class TxnMarkersSkippedAtRestartIT {

  private static final int RESTARTS = 8;
  private static final String SKIPPED = "Couldn't find leader endpoint for partitions";

  @Test
  void aRestartedBrokerTakesExistingPartitionsForDeletedWhenItAbortsATimedOutTransaction(
      @TempDir final Path dir) throws Exception {
    final Path dataDir = dir.resolve("kafka");
    final int port = Ports.free(1).get(0);
    final String topic = KafkaClients.uniqueTopic("skipped");
    final ListAppender<ILoggingEvent> markers = new ListAppender<>();
    markers.start();
    final Logger channel =
        (Logger)
            LoggerFactory.getLogger(
                "kafka.coordinator.transaction.TransactionMarkerChannelManager");
    final Level level = channel.getLevel();
    channel.setLevel(Level.INFO);
    channel.addAppender(markers);
    try {
      int skipped = 0;
      int hanging = 0;
      for (int restart = 1; restart <= RESTARTS && hanging == 0; restart++) {
        killWithATransactionOpen(dataDir, port, topic, topic + "-tx-" + restart);
        // The transaction times out while the broker is down: the next start aborts it at once.
        Thread.sleep(1_500);
        try (EmbeddedKafkaBroker restarted = broker(dataDir, port);
            Admin admin = Admin.create(Map.of("bootstrap.servers", restarted.bootstrapServers()))) {
          final String transactionalId = topic + "-tx-" + restart;
          // The coordinator aborts on load; once it calls the transaction complete, is it still
          // open in the partitions?
          await()
              .atMost(Duration.ofSeconds(30))
              .ignoreExceptions()
              .until(
                  () ->
                      admin
                              .describeTransactions(List.of(transactionalId))
                              .description(transactionalId)
                              .get()
                              .state()
                          == TransactionState.COMPLETE_ABORT);
          final TopicPartition offsets = new TopicPartition("__consumer_offsets", 0);
          final boolean open =
              !admin
                  .describeProducers(List.of(offsets))
                  .partitionResult(offsets)
                  .get()
                  .activeProducers()
                  .stream()
                  .filter(p -> p.currentTransactionStartOffset().isPresent())
                  .toList()
                  .isEmpty();
          hanging += open ? 1 : 0;
        }
        skipped =
            (int)
                markers.list.stream()
                    .filter(e -> e.getFormattedMessage().contains(SKIPPED))
                    .count();
        System.out.printf(
            "restart %d: markers skipped %d times so far; transactions complete in their"
                + " coordinator but open in __consumer_offsets: %d%n",
            restart, skipped, hanging);
      }
      assertThat(skipped)
          .as("restarts whose coordinator skipped live partitions' markers")
          .isPositive();
      assertThat(markers.list)
          .filteredOn(e -> e.getFormattedMessage().contains(SKIPPED))
          .first()
          .extracting(ILoggingEvent::getFormattedMessage)
          .asString()
          .contains(topic, "__consumer_offsets-0");
      assertThat(hanging)
          .as("transactions their coordinator completed that stay open in __consumer_offsets")
          .isPositive();
    } finally {
      channel.detachAppender(markers);
      channel.setLevel(level);
    }
  }

  private static EmbeddedKafkaBroker broker(final Path dataDir, final int port) {
    return EmbeddedKafkaBroker.builder()
        .dataDir(dataDir)
        .port(port)
        .abortHangingTransactions(false)
        .build()
        .start();
  }

  /** Runs {@link OpenTransactionProcess} and kills it (-9) once its transaction is open. */
  private static void killWithATransactionOpen(
      final Path dataDir, final int port, final String topic, final String transactionalId)
      throws Exception {
    final Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                OpenTransactionProcess.class.getName(),
                dataDir.toString(),
                Integer.toString(port),
                topic,
                transactionalId)
            .redirectErrorStream(true)
            .start();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8))) {
      String line;
      while ((line = out.readLine()) != null && !line.contains(OpenTransactionProcess.OPEN)) {
        // its broker's start-up log
      }
      assertThat(line).as("the process's transaction is open").isNotNull();
    } finally {
      process.destroyForcibly().waitFor();
    }
  }
}
