package io.quotaflow.engine.recovery;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;

/**
 * One admin client for an engine instance's own checks, created on first use (a broker that is away
 * at start-up delays nothing) and closed with the engine.
 */
public final class SharedAdmin implements AutoCloseable {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final Map<String, Object> settings;
  private Admin admin;
  private boolean closed;

  /** An admin client of {@code settings}, not created yet. */
  public SharedAdmin(final Map<String, Object> settings) {
    this.settings = Map.copyOf(settings);
  }

  /** The client, created now if it was not. */
  public synchronized Admin get() {
    if (closed) {
      throw new IllegalStateException("The engine's admin client is closed");
    }
    if (admin == null) {
      admin = Admin.create(settings);
    }
    return admin;
  }

  /**
   * The first offset of each of {@code partitions}.
   *
   * @throws KafkaException when Kafka does not tell within 10 s
   */
  public Map<TopicPartition, Long> firstOffsets(final Collection<TopicPartition> partitions) {
    final Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    partitions.forEach(partition -> request.put(partition, OffsetSpec.earliest()));
    try {
      final Map<TopicPartition, Long> offsets = new HashMap<>();
      get()
          .listOffsets(request, new ListOffsetsOptions().timeoutMs((int) TIMEOUT.toMillis()))
          .all()
          .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
          .forEach((partition, info) -> offsets.put(partition, info.offset()));
      return offsets;
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KafkaException("Interrupted while reading where changelogs start", e);
    } catch (final ExecutionException | TimeoutException e) {
      throw new KafkaException("Cannot read where changelogs " + partitions + " start", e);
    }
  }

  /**
   * The committed offset of each partition {@code group} has committed, once no transaction is
   * pending on it.
   *
   * @throws KafkaException when Kafka does not tell within 10 s
   */
  public Map<TopicPartition, Long> committedOffsets(final String group) {
    try {
      final Map<TopicPartition, Long> offsets = new HashMap<>();
      get()
          .listConsumerGroupOffsets(
              group,
              new ListConsumerGroupOffsetsOptions()
                  .requireStable(true)
                  .timeoutMs((int) TIMEOUT.toMillis()))
          .partitionsToOffsetAndMetadata()
          .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
          .forEach(
              (partition, offset) -> {
                if (offset != null) {
                  offsets.put(partition, offset.offset());
                }
              });
      return offsets;
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KafkaException("Interrupted while reading the committed offsets of " + group, e);
    } catch (final ExecutionException | TimeoutException e) {
      throw new KafkaException("Cannot read the committed offsets of " + group, e);
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (admin != null) {
      admin.close(Duration.ofSeconds(2));
      admin = null;
    }
  }
}
