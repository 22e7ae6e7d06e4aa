package io.quotaflow.cli.topics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;

/**
 * Reads one topic for {@code quotaflow topics tail}: by default the last {@code n} records (the
 * last {@code n} of each partition, then the last {@code n} of those by timestamp); from the first
 * record on with {@link Options#fromBeginning()} (at most {@code n} when a count is given); and
 * then, with {@link Options#follow()}, every new record until {@link #wakeup()}. Without follow it
 * stops at the end the topic had when it started. Partitions are assigned, not subscribed: no
 * consumer group is joined or committed to.
 */
final class TopicTail implements AutoCloseable {

  /** The default number of records: the last ten, as {@code tail} prints. */
  static final int DEFAULT_COUNT = 10;

  private static final Duration POLL = Duration.ofMillis(200);

  /**
   * What to read.
   *
   * @param fromBeginning start at the first record instead of the last {@code count}
   * @param count how many records (the last ones; the first ones with fromBeginning); empty: the
   *     default for the last ones, every record from the beginning
   * @param follow keep reading new records until woken up
   */
  record Options(boolean fromBeginning, OptionalInt count, boolean follow) {}

  private final org.apache.kafka.clients.consumer.Consumer<byte[], byte[]> consumer;
  private final String topic;
  private final Duration timeout;

  /**
   * @param consumer a consumer without group, reading raw bytes; closed by {@link #close()}
   * @param timeout how long asking for the topic's partitions and offsets may take
   */
  TopicTail(
      final org.apache.kafka.clients.consumer.Consumer<byte[], byte[]> consumer,
      final String topic,
      final Duration timeout) {
    this.consumer = consumer;
    this.topic = topic;
    this.timeout = timeout;
  }

  /**
   * Reads as {@code options} say and hands each record to {@code sink}, in order.
   *
   * @throws TailException when the topic does not exist or Kafka does not answer in time
   */
  void run(final Options options, final Consumer<ConsumerRecord<byte[], byte[]>> sink) {
    try {
      final List<TopicPartition> partitions = partitions();
      consumer.assign(partitions);
      final Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, timeout);
      final Map<TopicPartition, Long> beginnings = consumer.beginningOffsets(partitions, timeout);
      if (options.fromBeginning()) {
        partitions.forEach(partition -> consumer.seek(partition, beginnings.get(partition)));
        readFromBeginning(options.count(), ends, sink);
      } else {
        readLast(options.count().orElse(DEFAULT_COUNT), partitions, beginnings, ends).forEach(sink);
        // Following goes on from where the topic ended when this started.
        partitions.forEach(partition -> consumer.seek(partition, ends.get(partition)));
      }
      if (options.follow()) {
        consumer.resume(consumer.assignment());
        while (true) {
          consumer.poll(POLL).forEach(sink);
        }
      }
    } catch (WakeupException e) {
      // Asked to stop (Ctrl-C while following).
    } catch (TimeoutException e) {
      throw new TailException(
          "Kafka did not answer within " + timeout.toSeconds() + " s: " + e.getMessage(), e);
    }
  }

  /** Stops a {@link #run} in progress, from another thread. */
  void wakeup() {
    consumer.wakeup();
  }

  @Override
  public void close() {
    consumer.close(Duration.ofSeconds(1));
  }

  private List<TopicPartition> partitions() {
    final List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
    if (infos == null || infos.isEmpty()) {
      throw new TailException("topic " + topic + " does not exist in this Kafka");
    }
    return infos.stream()
        .map(info -> new TopicPartition(info.topic(), info.partition()))
        .sorted(Comparator.comparingInt(TopicPartition::partition))
        .toList();
  }

  private void readFromBeginning(
      final OptionalInt limit,
      final Map<TopicPartition, Long> ends,
      final Consumer<ConsumerRecord<byte[], byte[]>> sink) {
    int printed = 0;
    while (!reachedEnds(ends)) {
      final List<ConsumerRecord<byte[], byte[]>> records = poll(ends);
      for (int i = 0; i < records.size(); i++) {
        if (limit.isPresent() && printed >= limit.getAsInt()) {
          // Following goes on from the first record not printed.
          rewind(records.subList(i, records.size()));
          return;
        }
        sink.accept(records.get(i));
        printed++;
      }
    }
  }

  /**
   * The last {@code count} records before the ends, oldest first: the last {@code count} of each
   * partition, then the last {@code count} of those by timestamp.
   */
  private List<ConsumerRecord<byte[], byte[]>> readLast(
      final int count,
      final List<TopicPartition> partitions,
      final Map<TopicPartition, Long> beginnings,
      final Map<TopicPartition, Long> ends) {
    final List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
    for (final TopicPartition partition : partitions) {
      read.addAll(lastOf(partition, count, beginnings.get(partition), ends.get(partition)));
    }
    read.sort(
        Comparator.comparingLong((ConsumerRecord<byte[], byte[]> r) -> r.timestamp())
            .thenComparingInt(ConsumerRecord::partition)
            .thenComparingLong(ConsumerRecord::offset));
    return read.subList(Math.max(0, read.size() - count), read.size());
  }

  /**
   * The last {@code count} records of one partition. Offsets without a record (transaction markers,
   * compacted records) make {@code end - count} too late a start: the window doubles until it holds
   * enough records or reaches the beginning.
   */
  private List<ConsumerRecord<byte[], byte[]>> lastOf(
      final TopicPartition partition, final int count, final long beginning, final long end) {
    long window = count;
    while (true) {
      final long start = Math.max(beginning, end - window);
      final List<ConsumerRecord<byte[], byte[]>> records = range(partition, start, end);
      if (records.size() >= count || start == beginning) {
        return records.subList(Math.max(0, records.size() - count), records.size());
      }
      window = Math.min(Long.MAX_VALUE / 2, window * 2);
    }
  }

  /** The records of one partition from {@code start} (inclusive) to {@code end} (exclusive). */
  private List<ConsumerRecord<byte[], byte[]>> range(
      final TopicPartition partition, final long start, final long end) {
    final List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    if (start >= end) {
      return records;
    }
    consumer.pause(consumer.assignment());
    consumer.resume(List.of(partition));
    consumer.seek(partition, start);
    while (consumer.position(partition, timeout) < end) {
      for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL).records(partition)) {
        if (record.offset() < end) {
          records.add(record);
        }
      }
    }
    return records;
  }

  /**
   * One poll's records below the ends. Records at or past an end are left for following: the
   * partition's position is set back to the first of them.
   */
  private List<ConsumerRecord<byte[], byte[]>> poll(final Map<TopicPartition, Long> ends) {
    final ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
    final List<ConsumerRecord<byte[], byte[]>> below = new ArrayList<>();
    final List<ConsumerRecord<byte[], byte[]>> beyond = new ArrayList<>();
    for (final ConsumerRecord<byte[], byte[]> record : records) {
      final TopicPartition partition = new TopicPartition(record.topic(), record.partition());
      (record.offset() < ends.get(partition) ? below : beyond).add(record);
    }
    rewind(beyond);
    return below;
  }

  /** Sets each partition's position back to the first of {@code unread} on it. */
  private void rewind(final List<ConsumerRecord<byte[], byte[]>> unread) {
    final Map<TopicPartition, Long> first = new HashMap<>();
    for (final ConsumerRecord<byte[], byte[]> record : unread) {
      first.merge(
          new TopicPartition(record.topic(), record.partition()), record.offset(), Math::min);
    }
    first.forEach(consumer::seek);
  }

  /** Whether every partition's position reached its end; those that did are paused. */
  private boolean reachedEnds(final Map<TopicPartition, Long> ends) {
    boolean all = true;
    for (final Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
      // The position passes transaction markers too, so it reaches an end that ends with one.
      if (consumer.position(end.getKey(), timeout) < end.getValue()) {
        all = false;
      } else {
        consumer.pause(List.of(end.getKey()));
      }
    }
    return all;
  }
}
