package io.quotaflow.bench.pipeline;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What one Kafka Streams application wrote while processing the workload, read back from the
 * broker: per output (the changelog of one of its stores, or one output topic) the committed
 * records, their key and value bytes (as serialized, before batching and compression), how many
 * were tombstones and how many distinct keys they had. The I/O-matched floor ({@link
 * IoMatchedFloorRun}) writes as many records of the same sizes.
 *
 * @param inputs the input records the application read meanwhile
 * @param outputs what it wrote, stores first, in a stable order
 */
record IoProfile(long inputs, List<IoProfile.Output> outputs) {
  private static final String CHANGELOG = "-changelog";
  private static final Duration READ_LIMIT = Duration.ofSeconds(120);

  /** Where an output goes. */
  enum Kind {
    /** A state store, written with its changelog. */
    STORE,
    /** An output topic, written through a sink. */
    TOPIC
  }

  /**
   * One output.
   *
   * @param kind store or topic
   * @param name the store's name (its changelog is {@code <application id>-<name>-changelog}) or
   *     the topic's
   * @param records committed records written
   * @param keyBytes their key bytes in all
   * @param valueBytes their value bytes in all (a tombstone has none)
   * @param tombstones records without a value
   * @param distinctKeys distinct keys among them
   */
  record Output(
      Kind kind,
      String name,
      long records,
      long keyBytes,
      long valueBytes,
      long tombstones,
      long distinctKeys) {
    long bytes() {
      return keyBytes + valueBytes;
    }

    double perInput(final long inputs) {
      return inputs == 0 ? 0 : (double) records / inputs;
    }

    double averageKeyBytes() {
      return records == 0 ? 0 : (double) keyBytes / records;
    }

    double averageValueBytes() {
      return records == 0 ? 0 : (double) valueBytes / records;
    }
  }

  /** The outputs with at least one record. */
  List<Output> written() {
    return outputs.stream().filter(output -> output.records() > 0).toList();
  }

  /** The output of this kind and name, if measured. */
  Output find(final Kind kind, final String name) {
    return outputs.stream()
        .filter(output -> output.kind() == kind && output.name().equals(name))
        .findFirst()
        .orElse(null);
  }

  long totalRecords() {
    return outputs.stream().mapToLong(Output::records).sum();
  }

  long totalBytes() {
    return outputs.stream().mapToLong(Output::bytes).sum();
  }

  /** The end offsets (last stable offsets) of every partition of {@code topics} now. */
  static Map<TopicPartition, Long> endOffsets(
      final String bootstrapServers, final Collection<String> topics) {
    try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrapServers)) {
      final List<TopicPartition> partitions = partitionsOf(consumer, topics);
      return new HashMap<>(consumer.endOffsets(partitions));
    }
  }

  /**
   * Reads back what application {@code applicationId} wrote: the changelog of each of its stores
   * (from the beginning) and {@code outputTopics} (from {@code from}, the end offsets taken before
   * it started), each up to its end offsets now.
   *
   * @param names maps a store's or topic's name to the name it is reported under (absent: its own)
   */
  static IoProfile measure(
      final String bootstrapServers,
      final String applicationId,
      final Map<String, String> names,
      final Collection<String> outputTopics,
      final Map<TopicPartition, Long> from,
      final long inputs) {
    final List<Output> outputs = new ArrayList<>();
    final Map<String, String> changelogs = changelogs(bootstrapServers, applicationId);
    try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrapServers)) {
      changelogs.forEach(
          (store, topic) ->
              outputs.add(
                  read(consumer, Kind.STORE, names.getOrDefault(store, store), topic, Map.of())));
      for (final String topic : outputTopics) {
        outputs.add(read(consumer, Kind.TOPIC, names.getOrDefault(topic, topic), topic, from));
      }
    }
    return new IoProfile(inputs, List.copyOf(outputs));
  }

  /** What {@code topics} hold, each read from its start to its end now. */
  static List<Output> readTopics(final String bootstrapServers, final Collection<String> topics) {
    final List<Output> outputs = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrapServers)) {
      for (final String topic : topics) {
        outputs.add(read(consumer, Kind.TOPIC, topic, topic, Map.of()));
      }
    }
    return List.copyOf(outputs);
  }

  /** Store name -> changelog topic of {@code applicationId}, sorted by store name. */
  private static Map<String, String> changelogs(
      final String bootstrapServers, final String applicationId) {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
      final Map<String, String> changelogs = new java.util.TreeMap<>();
      for (final String topic : admin.listTopics().names().get()) {
        if (topic.startsWith(applicationId + "-") && topic.endsWith(CHANGELOG)) {
          changelogs.put(
              topic.substring(applicationId.length() + 1, topic.length() - CHANGELOG.length()),
              topic);
        }
      }
      return changelogs;
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (final ExecutionException e) {
      throw new IllegalStateException("could not list the topics", e);
    }
  }

  /** Reads {@code topic}'s committed records from {@code from} (else the start) to its end now. */
  private static Output read(
      final KafkaConsumer<byte[], byte[]> consumer,
      final Kind kind,
      final String name,
      final String topic,
      final Map<TopicPartition, Long> from) {
    final List<TopicPartition> partitions = partitionsOf(consumer, List.of(topic));
    final Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
    consumer.assign(partitions);
    for (final TopicPartition partition : partitions) {
      consumer.seek(partition, from.getOrDefault(partition, 0L));
    }
    long records = 0;
    long keyBytes = 0;
    long valueBytes = 0;
    long tombstones = 0;
    final Set<ByteBuffer> keys = new HashSet<>();
    final long deadline = System.nanoTime() + READ_LIMIT.toNanos();
    while (!reached(consumer, end)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("could not read " + topic + " to its end in time");
      }
      for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
        if (record.offset() >= end.get(new TopicPartition(record.topic(), record.partition()))) {
          continue;
        }
        records++;
        final byte[] key = record.key();
        if (key != null) {
          keyBytes += key.length;
          keys.add(ByteBuffer.wrap(key));
        }
        if (record.value() == null) {
          tombstones++;
        } else {
          valueBytes += record.value().length;
        }
      }
    }
    consumer.assign(List.of());
    return new Output(kind, name, records, keyBytes, valueBytes, tombstones, keys.size());
  }

  private static boolean reached(
      final KafkaConsumer<byte[], byte[]> consumer, final Map<TopicPartition, Long> end) {
    for (final Map.Entry<TopicPartition, Long> partition : end.entrySet()) {
      if (consumer.position(partition.getKey()) < partition.getValue()) {
        return false;
      }
    }
    return true;
  }

  private static List<TopicPartition> partitionsOf(
      final KafkaConsumer<byte[], byte[]> consumer, final Collection<String> topics) {
    final List<TopicPartition> partitions = new ArrayList<>();
    for (final String topic : topics) {
      consumer.partitionsFor(topic).stream()
          .map(info -> new TopicPartition(info.topic(), info.partition()))
          .forEach(partitions::add);
    }
    return partitions;
  }

  private static KafkaConsumer<byte[], byte[]> consumer(final String bootstrapServers) {
    return new KafkaConsumer<>(
        ReadCommitted.settings(bootstrapServers, 5_000),
        new ByteArrayDeserializer(),
        new ByteArrayDeserializer());
  }

  /** Prints one line per output that was written: records and bytes, in all and per input. */
  void print(final java.io.PrintStream out, final String indent) {
    out.printf(
        Locale.ROOT,
        "%s%-6s %-44s %10s %9s %12s %9s %9s %10s %10s%n",
        indent,
        "kind",
        "output",
        "records",
        "per input",
        "key+value B",
        "avg key B",
        "avg val B",
        "tombstones",
        "dist. keys");
    for (final Output output : written()) {
      out.printf(
          Locale.ROOT,
          "%s%-6s %-44s %,10d %9.4f %,12d %9.1f %9.1f %,10d %,10d%n",
          indent,
          output.kind().name().toLowerCase(Locale.ROOT),
          output.name(),
          output.records(),
          output.perInput(inputs),
          output.bytes(),
          output.averageKeyBytes(),
          output.averageValueBytes(),
          output.tombstones(),
          output.distinctKeys());
    }
    out.printf(
        Locale.ROOT,
        "%s%-6s %-44s %,10d %9.4f %,12d   (over %,d input records)%n",
        indent,
        "",
        "all",
        totalRecords(),
        inputs == 0 ? 0.0 : (double) totalRecords() / inputs,
        totalBytes(),
        inputs);
  }
}
