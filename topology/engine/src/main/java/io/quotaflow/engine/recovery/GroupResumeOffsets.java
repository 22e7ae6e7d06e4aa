package io.quotaflow.engine.recovery;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Where a task of the application must resume its partitions: the group's committed offset, or, for
 * a partition the group never committed, the first offset Kafka keeps when the main consumer's
 * reset policy is {@code earliest} (Kafka Streams' default, and always so for repartition topics
 * the engine reads). A first batch of denials on a fresh repartition partition is as much skipped
 * as a later one.
 */
public final class GroupResumeOffsets implements InputResumeAudit.ResumeOffsets {
  private static final String EARLIEST = "earliest";

  private final SharedAdmin admin;
  private final String group;
  private final boolean earliestWhenUncommitted;

  /**
   * @param admin the instance's admin client
   * @param group the application id
   * @param earliestWhenUncommitted whether a partition never committed starts at its first offset
   */
  public GroupResumeOffsets(
      final SharedAdmin admin, final String group, final boolean earliestWhenUncommitted) {
    this.admin = Objects.requireNonNull(admin, "admin");
    this.group = Objects.requireNonNull(group, "group");
    this.earliestWhenUncommitted = earliestWhenUncommitted;
  }

  /**
   * Whether the main consumer of an application with the Kafka settings {@code kafka} starts a
   * partition never committed at its first offset: unless {@code auto.offset.reset} (plain, or for
   * the consumers or the main consumer) says otherwise.
   */
  public static boolean resetsToEarliest(final Map<String, String> kafka) {
    final String key = ConsumerConfig.AUTO_OFFSET_RESET_CONFIG;
    for (final String setting :
        new String[] {
          StreamsConfig.mainConsumerPrefix(key), StreamsConfig.consumerPrefix(key), key
        }) {
      if (kafka.containsKey(setting)) {
        return EARLIEST.equals(kafka.get(setting).trim());
      }
    }
    return true;
  }

  @Override
  public Map<TopicPartition, Long> of(final Set<TopicPartition> partitions) {
    final Map<TopicPartition, Long> expected = new HashMap<>();
    final Map<TopicPartition, Long> committed = admin.committedOffsets(group);
    final Set<TopicPartition> never = new HashSet<>();
    for (final TopicPartition partition : partitions) {
      final Long offset = committed.get(partition);
      if (offset != null) {
        expected.put(partition, offset);
      } else {
        never.add(partition);
      }
    }
    if (earliestWhenUncommitted && !never.isEmpty()) {
      expected.putAll(admin.firstOffsets(never));
    }
    return expected;
  }
}
