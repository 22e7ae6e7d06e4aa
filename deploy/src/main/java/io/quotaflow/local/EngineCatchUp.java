package io.quotaflow.local;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How many of the records the connectors had written when they were first in sync the engine has
 * still to read: the ends of the input topics then, against the offsets the engine has committed
 * since. Local is ready once it has read them all, so that the first tree is the whole
 * organisation, not the part read so far. Kafka not answering makes the count unknown, never a
 * failure: local then is ready on its first tree, as before.
 */
final class EngineCatchUp implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EngineCatchUp.class);
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final Admin admin;
  private final String groupId;
  private final Map<TopicPartition, Long> ends;

  private EngineCatchUp(
      final Admin admin, final String groupId, final Map<TopicPartition, Long> ends) {
    this.admin = admin;
    this.groupId = groupId;
    this.ends = ends;
  }

  /** Takes the ends of {@code topics} now, for the consumer group {@code groupId} to reach. */
  static EngineCatchUp fromNow(
      final Map<String, Object> kafka, final String groupId, final List<String> topics) {
    final Admin admin = Admin.create(kafka);
    Map<TopicPartition, Long> ends = Map.of();
    try {
      final Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
      for (final TopicDescription topic :
          admin.describeTopics(topics).allTopicNames().get(seconds(), TimeUnit.SECONDS).values()) {
        topic
            .partitions()
            .forEach(
                p ->
                    latest.put(
                        new TopicPartition(topic.name(), p.partition()), OffsetSpec.latest()));
      }
      final Map<TopicPartition, Long> found = new HashMap<>();
      admin
          .listOffsets(latest)
          .all()
          .get(seconds(), TimeUnit.SECONDS)
          .forEach((partition, info) -> found.put(partition, info.offset()));
      ends = Map.copyOf(found);
    } catch (final ExecutionException | TimeoutException e) {
      LOG.debug("The ends of the engine's inputs are not known: {}", e.toString());
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return new EngineCatchUp(admin, groupId, ends);
  }

  /** The records the connectors had written by then. */
  long total() {
    return ends.values().stream().mapToLong(Long::longValue).sum();
  }

  /** The records of those not yet read by the engine; empty when Kafka does not say. */
  OptionalLong behind() {
    if (ends.isEmpty()) {
      return OptionalLong.empty();
    }
    try {
      final Map<TopicPartition, OffsetAndMetadata> committed =
          admin
              .listConsumerGroupOffsets(groupId)
              .partitionsToOffsetAndMetadata()
              .get(seconds(), TimeUnit.SECONDS);
      long behind = 0;
      for (final Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
        final OffsetAndMetadata read = committed.get(end.getKey());
        behind += Math.max(0, end.getValue() - (read == null ? 0 : read.offset()));
      }
      return OptionalLong.of(behind);
    } catch (final ExecutionException | TimeoutException e) {
      return OptionalLong.empty();
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
      return OptionalLong.empty();
    }
  }

  private static long seconds() {
    return TIMEOUT.toSeconds();
  }

  @Override
  public void close() {
    admin.close(Duration.ofSeconds(1));
  }
}
