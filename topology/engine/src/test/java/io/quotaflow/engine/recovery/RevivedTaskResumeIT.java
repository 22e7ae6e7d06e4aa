package io.quotaflow.engine.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.apache.kafka.streams.errors.TaskMigratedException;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Reproducer of the Kafka Streams 4.3.1 defect written up in
 * docs/upstream/kafka-streams-revived-task-skips-fetched-records.md: under exactly-once, a task
 * reported corrupted is revived to read on from the committed offset, but the rebalance Kafka
 * Streams enforces right after replaces it, before it is initialised, by a new task that does not
 * seek; the consumer reads on from its fetch position, past every record the failed incarnation had
 * fetched and not committed. No state, no outage: one partition, one processor that reports its
 * task corrupted in the middle of a fetched batch (as the engine's restore refusal does), nothing
 * else for the consumer to return, so the enforced rebalance completes in the poll that follows.
 *
 * <p>The first test pins the defect: it passes while the defect is there and fails once a release
 * fixes it (the revived task's first record then is the committed one), telling us to drop the
 * workaround. The second shows the workaround the engine applies ({@link InputResumeAudit}): a
 * TaskMigratedException has the thread rejoin, and a new assignment starts at the committed offset.
 */
@Tag("fault")
@ExtendWith(EmbeddedKafkaExtension.class)
class RevivedTaskResumeIT {
  private static final String INPUT = "revive-resume-in";

  /** The offset each incarnation of the processor processed, in order. */
  private record Processed(int incarnation, long offset) {}

  @Test
  void aTaskRevivedInTheMiddleOfAFetchedBatchResumesAfterEveryRecordItsFailedIncarnationFetched(
      final EmbeddedKafkaBroker broker) throws Exception {
    final String topic = INPUT + "-" + UUID.randomUUID();
    final String app = "revive-resume-" + UUID.randomUUID();
    final TopicPartition input = new TopicPartition(topic, 0);
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
      admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
      final Run run = new Run(topic, /* recover= */ null);
      try (KafkaStreams streams = new KafkaStreams(run.topology(), properties(broker, app))) {
        failMidBatch(broker, admin, app, input, run, streams);

        // A record after the failure: the task that processes it first is the one after it.
        produce(broker, topic, 1);
        await().atMost(Duration.ofSeconds(60)).until(() -> run.firstOf(2).isPresent());

        // The defect: it starts at the consumer's fetch position (offset 250, after the 200 records
        // fetched by the failed incarnation), not at the committed offset 50; offsets 61 to 249
        // were
        // never processed, 50 to 60 only in the aborted transaction, and the commit that follows
        // moves past them all.
        assertThat(run.firstOf(2)).hasValue(250L);
        await().atMost(Duration.ofSeconds(60)).until(() -> committed(admin, app, input) == 251);
        assertThat(run.processed().stream().filter(p -> p.incarnation() >= 2).count()).isOne();
      }
    }
  }

  @Test
  void aTaskThatReportsItsThreadFencedWhenItStartsPastTheCommittedOffsetResumesFromIt(
      final EmbeddedKafkaBroker broker) throws Exception {
    final String topic = INPUT + "-" + UUID.randomUUID();
    final String app = "revive-resume-" + UUID.randomUUID();
    final TopicPartition input = new TopicPartition(topic, 0);
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
      admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
      // The workaround the engine applies (InputResumeAudit): a task whose first record lies past
      // its partition's committed offset throws TaskMigratedException; Kafka Streams closes the
      // thread's tasks, unsubscribes and joins again, and a new assignment starts at the committed
      // offsets.
      final Run run =
          new Run(
              topic,
              first -> {
                if (first > committed(admin, app, input)) {
                  throw new TaskMigratedException("first record " + first + " past the committed");
                }
              });
      try (KafkaStreams streams = new KafkaStreams(run.topology(), properties(broker, app))) {
        failMidBatch(broker, admin, app, input, run, streams);
        produce(broker, topic, 1);

        // Every record from the committed offset on is processed after the failure.
        await()
            .atMost(Duration.ofSeconds(60))
            .until(
                () ->
                    run.processed().stream()
                            .filter(p -> p.incarnation() >= 2)
                            .mapToLong(Processed::offset)
                            .distinct()
                            .count()
                        == 201);
        assertThat(
                run.processed().stream()
                    .filter(p -> p.incarnation() >= 2)
                    .mapToLong(Processed::offset)
                    .min())
            .hasValue(50L);
        await().atMost(Duration.ofSeconds(60)).until(() -> committed(admin, app, input) == 251);
      }
    }
  }

  /**
   * Starts {@code streams}, has 50 records processed and committed, then 200 more written at once;
   * the task fails at offset 60, with the rest of the 200 fetched.
   */
  private static void failMidBatch(
      final EmbeddedKafkaBroker broker,
      final Admin admin,
      final String app,
      final TopicPartition input,
      final Run run,
      final KafkaStreams streams)
      throws Exception {
    produce(broker, input.topic(), 50);
    streams.start();
    await().atMost(Duration.ofSeconds(60)).until(() -> committed(admin, app, input) == 50);
    run.failAt(60);
    produce(broker, input.topic(), 200);
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> run.processed().contains(new Processed(1, 60)));
  }

  /** What the first incarnation does with its first record: nothing, or throw. */
  @FunctionalInterface
  private interface FirstRecordCheck {
    void check(long offset) throws Exception;
  }

  /** A one-processor topology that notes each incarnation's records and fails the first once. */
  private static final class Run {
    private final String topic;
    private final FirstRecordCheck recover;
    private final List<Processed> processed = new CopyOnWriteArrayList<>();
    private final AtomicInteger initialisations = new AtomicInteger();
    private volatile long failAt = Long.MAX_VALUE;

    Run(final String topic, final FirstRecordCheck recover) {
      this.topic = topic;
      this.recover = recover;
    }

    void failAt(final long offset) {
      failAt = offset;
    }

    List<Processed> processed() {
      return processed;
    }

    /** The first offset processed by an incarnation from the {@code incarnation}-th on. */
    Optional<Long> firstOf(final int incarnation) {
      return processed.stream()
          .filter(p -> p.incarnation() >= incarnation)
          .map(Processed::offset)
          .findFirst();
    }

    Topology topology() {
      final Topology topology = new Topology();
      topology.addSource("in", topic);
      topology.addProcessor(
          "p",
          () ->
              new Processor<String, String, String, String>() {
                private int incarnation;
                private boolean first;
                private ProcessorContext<String, String> context;

                @Override
                public void init(final ProcessorContext<String, String> context) {
                  this.context = context;
                  // Counted across instances: Kafka Streams builds a re-created task's anew.
                  incarnation = initialisations.incrementAndGet();
                  first = true;
                }

                @Override
                public void process(final Record<String, String> record) {
                  final long offset = context.recordMetadata().orElseThrow().offset();
                  if (first && incarnation > 1 && recover != null) {
                    try {
                      recover.check(offset);
                    } catch (final RuntimeException e) {
                      throw e;
                    } catch (final Exception e) {
                      throw new IllegalStateException(e);
                    }
                  }
                  first = false;
                  processed.add(new Processed(incarnation, offset));
                  if (incarnation == 1 && offset == failAt) {
                    throw new TaskCorruptedException(Set.of(context.taskId()));
                  }
                }
              },
          "in");
      return topology;
    }
  }

  private static Properties properties(final EmbeddedKafkaBroker broker, final String app)
      throws Exception {
    final Properties properties = new Properties();
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, app);
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    properties.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    properties.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 200);
    properties.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
    properties.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
    properties.put(
        StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("revive-resume").toString());
    properties.put(StreamsConfig.consumerPrefix("session.timeout.ms"), 10_000);
    properties.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
    return properties;
  }

  /** Writes {@code count} records and returns the offset of the first. */
  private static long produce(final EmbeddedKafkaBroker broker, final String topic, final int count)
      throws Exception {
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                broker.bootstrapServers(),
                ProducerConfig.LINGER_MS_CONFIG,
                5),
            new StringSerializer(),
            new StringSerializer())) {
      final List<java.util.concurrent.Future<org.apache.kafka.clients.producer.RecordMetadata>>
          sent = new java.util.ArrayList<>();
      for (int i = 0; i < count; i++) {
        sent.add(producer.send(new ProducerRecord<>(topic, 0, "k", "v" + i)));
      }
      producer.flush();
      return sent.get(0).get().offset();
    }
  }

  private static long committed(final Admin admin, final String app, final TopicPartition input)
      throws Exception {
    final OffsetAndMetadata offset =
        admin.listConsumerGroupOffsets(app).partitionsToOffsetAndMetadata().get().get(input);
    return offset == null ? -1 : offset.offset();
  }
}
