package io.quotaflow.evict;

import io.quotaflow.cluster.GroupMembership;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The executor's transactional producer: results and consumer offsets committed together, commits
 * and aborts that time out tried again, a producer that can no longer abort replaced by a new one
 * under the same transactional id. Used from the executor's Kafka thread only.
 */
final class ResultTransactions implements AutoCloseable {

  /** Waits between two tries; ends the wait when the executor stops. */
  @FunctionalInterface
  interface Pause {
    void pause(Duration duration) throws InterruptedException;
  }

  private static final Logger LOG = LoggerFactory.getLogger(ResultTransactions.class);

  private final Supplier<Producer<byte[], byte[]>> producers;
  private final EvictionSettings settings;
  private final Pause pause;
  private Producer<byte[], byte[]> producer;

  /**
   * @param producers makes a transactional producer (again, when one must be replaced)
   * @param settings the backoff between tries
   * @param pause waits between tries
   */
  ResultTransactions(
      final Supplier<Producer<byte[], byte[]>> producers,
      final EvictionSettings settings,
      final Pause pause) {
    this.producers = Objects.requireNonNull(producers, "producers");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.pause = Objects.requireNonNull(pause, "pause");
    this.producer = producers.get();
  }

  /** {@code initTransactions}, tried again while Kafka does not answer in time. */
  void initTransactions() throws InterruptedException {
    for (int attempt = 1; ; attempt++) {
      try {
        producer.initTransactions();
        return;
      } catch (TimeoutException e) {
        final Duration wait = settings.backoffAfter(attempt);
        LOG.warn(
            "initialising the transactions timed out (attempt {}), trying again in {} ms: {}",
            attempt,
            wait.toMillis(),
            e.toString());
        pause.pause(wait);
      }
    }
  }

  /**
   * Writes {@code records} and {@code offsets} in one transaction. A commit that times out is tried
   * again (the transaction is then neither committed nor aborted: the same commit must be repeated)
   * with the eviction backoff, as long as the executor runs; another failure aborts.
   *
   * @return false when the transaction was aborted (the caller reads the records again)
   * @throws ProducerFencedException when another executor took over (the loop ends its term)
   * @throws KafkaException when the producer can no longer be used
   * @throws InterruptedException when the executor stops while a commit is being retried
   */
  boolean commit(
      final Collection<ProducerRecord<byte[], byte[]>> records,
      final Map<TopicPartition, OffsetAndMetadata> offsets,
      final ConsumerGroupMetadata group)
      throws InterruptedException {
    try {
      producer.beginTransaction();
      records.forEach(producer::send);
      if (!offsets.isEmpty()) {
        producer.sendOffsetsToTransaction(offsets, group);
      }
      commitRetryingTimeouts();
      return true;
    } catch (ProducerFencedException
        | FencedInstanceIdException
        | OutOfOrderSequenceException
        | UnsupportedVersionException
        | AuthorizationException e) {
      throw e;
    } catch (KafkaException e) {
      LOG.warn(
          "writing a result failed, aborting and reading the commands again: {}", e.toString());
      abort();
      return false;
    }
  }

  private void commitRetryingTimeouts() throws InterruptedException {
    for (int attempt = 1; ; attempt++) {
      try {
        producer.commitTransaction();
        if (attempt > 1) {
          LOG.info("committing a result worked at attempt {}", attempt);
        }
        return;
      } catch (TimeoutException e) {
        final Duration wait = settings.backoffAfter(attempt);
        LOG.warn(
            "committing a result timed out (attempt {}), committing again in {} ms: {}",
            attempt,
            wait.toMillis(),
            e.toString());
        pause.pause(wait);
      }
    }
  }

  /**
   * Aborts the open transaction, trying again while the abort times out. A producer that cannot
   * abort at all (it is in a fatal state) is replaced by a new one under the same transactional id,
   * whose initialisation aborts what the old one left open: the loop goes on either way.
   */
  private void abort() throws InterruptedException {
    for (int attempt = 1; ; attempt++) {
      try {
        producer.abortTransaction();
        return;
      } catch (ProducerFencedException e) {
        throw e;
      } catch (TimeoutException e) {
        final Duration wait = settings.backoffAfter(attempt);
        LOG.warn(
            "aborting a transaction timed out (attempt {}), aborting again in {} ms: {}",
            attempt,
            wait.toMillis(),
            e.toString());
        pause.pause(wait);
      } catch (KafkaException | IllegalStateException e) {
        LOG.warn(
            "the producer cannot abort its transaction ({}); replacing it with a new one under the"
                + " same transactional id",
            e.toString());
        replaceProducer();
        return;
      }
    }
  }

  private void replaceProducer() throws InterruptedException {
    closeProducer();
    producer = producers.get();
    initTransactions();
  }

  private void closeProducer() {
    try {
      producer.close(GroupMembership.CLIENT_CLOSE_TIMEOUT);
    } catch (RuntimeException e) {
      LOG.warn("closing the producer failed: {}", e.toString());
    }
  }

  @Override
  public void close() {
    closeProducer();
  }
}
