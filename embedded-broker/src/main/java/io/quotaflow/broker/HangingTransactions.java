package io.quotaflow.broker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds transactions left open in a partition after their coordinator finished them, and aborts
 * them there, as {@code kafka-transactions.sh find-hanging} and {@code abort} do by hand.
 *
 * <p>A broker restarted on its data can act as transaction coordinator from its old metadata before
 * it knows any partition's leader again; it then aborts the transactions that timed out while it
 * was down, finds no leader for their partitions, takes them for deleted and completes the
 * transactions without writing their markers (docs/upstream/kafka-txn-markers-skipped-at-
 * restart.md). Such a partition keeps the transaction open for good: read-committed consumers stop
 * at it and a group's offsets in {@code __consumer_offsets} stay unstable, so a Kafka Streams
 * application never gets past its first offset fetch.
 *
 * <p>A transaction is hanging when a partition holds it open while its coordinator lists its
 * producer in no open state (ongoing or preparing): the coordinator moves a transaction to complete
 * only after every marker is written, so a complete transaction still open in a partition lost its
 * marker there. It is checked twice, before and after asking the coordinator, so a live transaction
 * that completes between the two questions is left alone.
 */
final class HangingTransactions {

  private static final Logger LOG = LoggerFactory.getLogger(HangingTransactions.class);
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);

  private final Admin admin;

  HangingTransactions(final Admin admin) {
    this.admin = admin;
  }

  /**
   * One look: aborts every hanging transaction found now.
   *
   * @return the partitions where one was aborted
   */
  List<TopicPartition> abortHanging() throws ExecutionException, InterruptedException {
    final Map<TopicPartition, List<ProducerState>> open = openTransactions(partitions());
    if (open.isEmpty()) {
      return List.of();
    }
    final Map<Long, TransactionState> coordinatorStates = coordinatorStates();
    final List<TopicPartition> aborted = new ArrayList<>();
    for (final Map.Entry<TopicPartition, List<ProducerState>> partition : open.entrySet()) {
      for (final ProducerState producer : partition.getValue()) {
        final TransactionState state = coordinatorStates.get(producer.producerId());
        if (isOpen(state) || !stillOpen(partition.getKey(), producer)) {
          continue;
        }
        abort(partition.getKey(), producer, state);
        aborted.add(partition.getKey());
      }
    }
    return aborted;
  }

  private List<TopicPartition> partitions() throws ExecutionException, InterruptedException {
    final Set<String> names =
        await(
            admin
                .listTopics(new ListTopicsOptions().listInternal(true))
                .names()
                .toCompletionStage());
    final Map<String, TopicDescription> topics =
        await(admin.describeTopics(names).allTopicNames().toCompletionStage());
    final List<TopicPartition> partitions = new ArrayList<>();
    topics.forEach(
        (name, topic) ->
            topic
                .partitions()
                .forEach(p -> partitions.add(new TopicPartition(name, p.partition()))));
    return partitions;
  }

  private Map<TopicPartition, List<ProducerState>> openTransactions(
      final List<TopicPartition> partitions) throws ExecutionException, InterruptedException {
    final Map<TopicPartition, List<ProducerState>> open = new HashMap<>();
    await(admin.describeProducers(partitions).all().toCompletionStage())
        .forEach(
            (partition, producers) -> {
              final List<ProducerState> inTransaction =
                  producers.activeProducers().stream()
                      .filter(p -> p.currentTransactionStartOffset().isPresent())
                      .toList();
              if (!inTransaction.isEmpty()) {
                open.put(partition, inTransaction);
              }
            });
    return open;
  }

  private Map<Long, TransactionState> coordinatorStates()
      throws ExecutionException, InterruptedException {
    final Map<Long, TransactionState> states = new HashMap<>();
    for (final TransactionListing listing :
        await(admin.listTransactions().all().toCompletionStage())) {
      states.put(listing.producerId(), listing.state());
    }
    return states;
  }

  private boolean stillOpen(final TopicPartition partition, final ProducerState seen)
      throws ExecutionException, InterruptedException {
    final Optional<ProducerState> now =
        await(admin.describeProducers(List.of(partition)).all().toCompletionStage())
            .get(partition)
            .activeProducers()
            .stream()
            .filter(p -> p.producerId() == seen.producerId())
            .findFirst();
    return now.isPresent()
        && now.get().currentTransactionStartOffset().equals(seen.currentTransactionStartOffset());
  }

  private void abort(
      final TopicPartition partition, final ProducerState producer, final TransactionState state)
      throws ExecutionException, InterruptedException {
    LOG.warn(
        "Aborting a hanging transaction in {}: producer {} (epoch {}) holds it open since offset"
            + " {}, and its coordinator lists it as {}: its marker here was lost, as when a"
            + " restarted broker completes a transaction before it knows its partitions' leaders"
            + " (docs/upstream/kafka-txn-markers-skipped-at-restart.md).",
        partition,
        producer.producerId(),
        producer.producerEpoch(),
        producer.currentTransactionStartOffset().getAsLong(),
        state == null ? "unknown" : state);
    await(
        admin
            .abortTransaction(
                new AbortTransactionSpec(
                    partition,
                    producer.producerId(),
                    (short) producer.producerEpoch(),
                    producer.coordinatorEpoch().orElse(-1)))
            .all()
            .toCompletionStage());
  }

  private static boolean isOpen(final TransactionState state) {
    return state == TransactionState.ONGOING
        || state == TransactionState.PREPARE_ABORT
        || state == TransactionState.PREPARE_COMMIT
        || state == TransactionState.PREPARE_EPOCH_FENCE
        // A state this client cannot name: leave it to its coordinator.
        || state == TransactionState.UNKNOWN;
  }

  private static <T> T await(final CompletionStage<T> stage)
      throws ExecutionException, InterruptedException {
    try {
      return stage.toCompletableFuture().get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (final TimeoutException e) {
      throw new ExecutionException("no answer from the broker in " + CALL_TIMEOUT, e);
    }
  }
}
