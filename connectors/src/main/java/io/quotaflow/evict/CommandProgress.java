package io.quotaflow.evict;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Which commands of each partition are read and not yet answered, so that the consumer offset
 * committed with the results never passes one still being carried out (issue 40: commands of
 * several clusters share a partition and finish out of order on their clusters' workers). The
 * offset to commit is the lowest unanswered one, or one past the last read when all are answered.
 *
 * <p>Each partition has a generation, moved on when the executor goes back to its committed offset
 * (a failed transaction) or loses the partition: an answer of an older generation is not committed
 * (its command is read again, by this executor or another), and a command of an older generation
 * still queued is not started. Used from the Kafka thread; only {@link #current} is read by the
 * workers.
 */
final class CommandProgress {

  private final Map<TopicPartition, TreeSet<Long>> unanswered = new HashMap<>();
  private final Map<TopicPartition, Long> next = new HashMap<>();
  private final Map<TopicPartition, Long> committed = new HashMap<>();
  private final Map<TopicPartition, Long> generations = new ConcurrentHashMap<>();
  private int count;

  /** Records that the command at {@code offset} was read; returns its partition's generation. */
  long read(final TopicPartition partition, final long offset) {
    // The first offset read is where the consumer stood: nothing before it is to commit.
    committed.putIfAbsent(partition, offset);
    unanswered.computeIfAbsent(partition, p -> new TreeSet<>()).add(offset);
    next.merge(partition, offset + 1, Math::max);
    count++;
    return generation(partition);
  }

  /** Records that the command at {@code offset} has its answer (to be committed next). */
  void answered(final TopicPartition partition, final long offset) {
    final TreeSet<Long> offsets = unanswered.get(partition);
    if (offsets != null && offsets.remove(offset)) {
      count--;
    }
  }

  /** Whether an answer read in {@code generation} of {@code partition} may still be committed. */
  boolean current(final TopicPartition partition, final long generation) {
    return generation(partition) == generation;
  }

  /** Commands read and not yet answered, over all partitions. */
  int unansweredCount() {
    return count;
  }

  /** The offsets to commit that moved since the last commit. */
  Map<TopicPartition, OffsetAndMetadata> advanced() {
    final Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    for (final Map.Entry<TopicPartition, Long> entry : next.entrySet()) {
      final TopicPartition partition = entry.getKey();
      final TreeSet<Long> open = unanswered.get(partition);
      final long position = open == null || open.isEmpty() ? entry.getValue() : open.first();
      if (position > committed.getOrDefault(partition, -1L)) {
        offsets.put(partition, new OffsetAndMetadata(position));
      }
    }
    return offsets;
  }

  /** Records that {@code offsets} were committed. */
  void committed(final Map<TopicPartition, OffsetAndMetadata> offsets) {
    offsets.forEach((partition, offset) -> committed.put(partition, offset.offset()));
  }

  /** The partitions commands were read from since their last reset. */
  Set<TopicPartition> partitions() {
    return Set.copyOf(next.keySet());
  }

  /** Forgets {@code partitions}' commands and starts a new generation of each. */
  void reset(final Collection<TopicPartition> partitions) {
    for (final TopicPartition partition : partitions) {
      final TreeSet<Long> open = unanswered.remove(partition);
      if (open != null) {
        count -= open.size();
      }
      next.remove(partition);
      committed.remove(partition);
      generations.merge(partition, 1L, Long::sum);
    }
  }

  private long generation(final TopicPartition partition) {
    return generations.getOrDefault(partition, 0L);
  }
}
