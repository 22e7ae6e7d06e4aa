package io.quotaflow.admission.people.view;

import io.quotaflow.engine.reclaim.EvictionReasons;
import io.quotaflow.kafka.ClientSettings;
import io.quotaflow.quota.PodRef;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionResult;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.topics.TopicCatalogue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds {@link RecentActivity} with the eviction commands the engine writes ({@code evictions.v1})
 * and the outcomes the eviction executor writes ({@code eviction-results.v1}): a consumer without a
 * group reads the last {@code tail} records of every partition of both topics, then follows them
 * (read_committed, so aborted commands never show). {@link #close} stops it within a poll.
 */
public final class KafkaEvictionFeed implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(KafkaEvictionFeed.class);
  private static final Duration POLL = Duration.ofMillis(500);
  private static final Duration JOIN = Duration.ofSeconds(3);
  private static final Duration RETRY = Duration.ofSeconds(5);

  private final Map<String, Object> settings;
  private final TopicCatalogue topics;
  private final RecentActivity activity;
  private final int tail;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private Thread thread;
  private volatile boolean closed;

  /**
   * @param kafka the engine's Kafka client settings (bootstrap servers, security); group and
   *     deserializer settings are replaced
   * @param topics where the evictions and their results are
   * @param activity where they go
   * @param tail how many of the last records of each partition are read at start
   */
  public KafkaEvictionFeed(
      Map<String, String> kafka, TopicCatalogue topics, RecentActivity activity, int tail) {
    // Config provider definitions kept, so secrets referenced as ${dir:...} are resolved.
    final Map<String, Object> config = ClientSettings.knownTo(ConsumerConfig.configNames(), kafka);
    config.remove(ConsumerConfig.GROUP_ID_CONFIG);
    config.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    config.remove(ConsumerConfig.GROUP_PROTOCOL_CONFIG);
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.put(ConsumerConfig.CLIENT_ID_CONFIG, "quotaflow-view-evictions");
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    this.settings = Map.copyOf(config);
    this.topics = topics;
    this.activity = activity;
    this.tail = tail;
    this.consumer = new KafkaConsumer<>(settings);
  }

  /** Starts reading on a daemon thread. */
  public synchronized KafkaEvictionFeed start() {
    if (thread != null) {
      throw new IllegalStateException("started once");
    }
    thread = new Thread(this::run, "quotaflow-view-evictions");
    thread.setDaemon(true);
    thread.start();
    return this;
  }

  private void run() {
    try {
      // The topics may not exist yet (an engine that does not provision them), or Kafka may be
      // away at start-up: look again later.
      while (!closed && !assignTailOnceReachable()) {
        synchronized (this) {
          wait(RETRY.toMillis());
        }
      }
      while (!closed) {
        for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
          take(record);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (WakeupException e) {
      if (!closed) {
        LOG.warn("the eviction feed of the web view was woken up unexpectedly", e);
      }
    } catch (RuntimeException e) {
      if (!closed) {
        LOG.warn("the eviction feed of the web view stopped; recent evictions are not shown", e);
      }
    } finally {
      consumer.close(Duration.ZERO);
    }
  }

  /** As {@link #assignTail()}; false also when Kafka did not answer in time. */
  private boolean assignTailOnceReachable() {
    try {
      return assignTail();
    } catch (org.apache.kafka.common.errors.TimeoutException e) {
      LOG.debug("the eviction feed of the web view cannot reach Kafka yet: {}", e.toString());
      return false;
    }
  }

  /** Assigns every partition of both topics, from its tail; false when the topics are missing. */
  private boolean assignTail() {
    final List<TopicPartition> partitions = new ArrayList<>();
    for (final String topic : List.of(topics.evictions().name(), topics.evictionResults().name())) {
      final List<PartitionInfo> infos = consumer.partitionsFor(topic);
      if (infos != null) {
        infos.forEach(info -> partitions.add(new TopicPartition(topic, info.partition())));
      }
    }
    if (partitions.isEmpty()) {
      return false;
    }
    consumer.assign(partitions);
    final Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
    final Map<TopicPartition, Long> starts = consumer.beginningOffsets(partitions);
    for (final TopicPartition partition : partitions) {
      final long end = ends.getOrDefault(partition, 0L);
      consumer.seek(partition, Math.max(starts.getOrDefault(partition, 0L), end - tail));
    }
    return true;
  }

  private void take(ConsumerRecord<byte[], byte[]> record) {
    if (record.key() == null || record.value() == null) {
      return;
    }
    try {
      if (record.topic().equals(topics.evictions().name())) {
        final PodKey key =
            topics.evictions().keyDeserializer().deserialize(record.topic(), record.key());
        final EvictionCommand command =
            topics.evictions().valueDeserializer().deserialize(record.topic(), record.value());
        activity.commandIssued(
            key.getCluster(),
            new RecentActivity.Eviction(
                command.getId(),
                new PodRef(key.getNamespace(), key.getName()),
                command.getGroup(),
                command.getReason(),
                EvictionReasons.of(command),
                command.getDimensionsOver(),
                command.getAttempt(),
                command.getIssuedAt(),
                Optional.empty(),
                "",
                Optional.empty()));
      } else {
        final PodKey key =
            topics.evictionResults().keyDeserializer().deserialize(record.topic(), record.key());
        final EvictionResult result =
            topics
                .evictionResults()
                .valueDeserializer()
                .deserialize(record.topic(), record.value());
        activity.resultArrived(
            key.getCluster(),
            result.getCommandId(),
            result.getOutcome().name(),
            result.getMessage(),
            result.getCompletedAt());
      }
    } catch (RuntimeException e) {
      LOG.debug("an eviction record the web view cannot read was skipped: {}", e.getMessage());
    }
  }

  /** Stops reading; waits briefly for the thread. Idempotent. */
  @Override
  public void close() {
    final Thread running;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      running = thread;
      notifyAll();
    }
    if (running == null) {
      consumer.close(Duration.ZERO);
      return;
    }
    consumer.wakeup();
    try {
      running.join(JOIN.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
