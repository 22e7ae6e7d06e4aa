package io.quotaflow.engine.recovery;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.TopologyDescription;

/**
 * Where the main consumer of the calling stream thread will read a task's input partitions next:
 * asked when the task's processor is initialised, before the task has read anything, it is where
 * the task resumes.
 */
public final class ConsumerPositions implements InputResumeAudit.Positions {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final String REPARTITION_SUFFIX = "-repartition";

  private final MainConsumers consumers;
  private final Set<String> topics;

  /**
   * @param consumers the stream threads' main consumers
   * @param topics the topics the tasks read, repartition topics with the application id's prefix
   */
  public ConsumerPositions(final MainConsumers consumers, final Set<String> topics) {
    this.consumers = Objects.requireNonNull(consumers, "consumers");
    this.topics = Set.copyOf(topics);
  }

  /**
   * The topics the sub-topology of {@code processor} reads, as the consumer names them: a
   * repartition topic, which the description names without it, with {@code applicationId}'s prefix.
   */
  public static Set<String> inputsOf(
      final TopologyDescription topology, final String processor, final String applicationId) {
    final Set<String> inputs = new TreeSet<>();
    for (final TopologyDescription.Subtopology subtopology : topology.subtopologies()) {
      if (subtopology.nodes().stream().noneMatch(node -> node.name().equals(processor))) {
        continue;
      }
      for (final TopologyDescription.Node node : subtopology.nodes()) {
        if (node instanceof TopologyDescription.Source source && source.topicSet() != null) {
          source.topicSet().stream()
              .map(
                  topic -> topic.endsWith(REPARTITION_SUFFIX) ? applicationId + "-" + topic : topic)
              .forEach(inputs::add);
        }
      }
    }
    return inputs;
  }

  /**
   * @throws RuntimeException when the consumer cannot tell within 10 s
   */
  @Override
  public Map<TopicPartition, Long> of(final int taskPartition) {
    final Map<TopicPartition, Long> next = new HashMap<>();
    consumers
        .ofThisThread()
        .ifPresent(
            consumer -> {
              final Set<TopicPartition> assigned = consumer.assignment();
              for (final String topic : topics) {
                final TopicPartition partition = new TopicPartition(topic, taskPartition);
                if (assigned.contains(partition)) {
                  next.put(partition, position(consumer, partition));
                }
              }
            });
    return next;
  }

  private static long position(
      final Consumer<byte[], byte[]> consumer, final TopicPartition partition) {
    return consumer.position(partition, TIMEOUT);
  }
}
