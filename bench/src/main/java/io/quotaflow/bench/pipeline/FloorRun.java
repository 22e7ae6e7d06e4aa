package io.quotaflow.bench.pipeline;

import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodState;
import io.quotaflow.topics.Topic;
import io.quotaflow.topics.TopicCatalogue;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * What Kafka Streams itself costs per pod event before any quota work: a minimal application with
 * the engine's own Kafka settings (same defaults, same guarantee) reads the pod topic with the
 * catalogue's serdes and counts the records; by {@link Shape}, it first re-keys them by cluster
 * through a repartition topic, or stores each one in a changelogged in-memory store, or both, the
 * two steps every engine input takes too (the hop only without inputs.partitioned.by.cluster). It
 * stops counting when the last record is processed, before the transaction holding it commits, so
 * its figure is an upper bound for any topology of that shape.
 */
final class FloorRun implements AutoCloseable {
  private static final long POLL_NANOS = Duration.ofMillis(5).toNanos();

  /** How much of the engine's input path the floor application has. */
  enum Shape {
    /** Source and a counting processor. */
    READ("read and count", false, false),
    /** Stored (changelogged) as read, then counted: the input path without the hop. */
    STORE("+ changelogged store", false, true),
    /** Re-keyed by cluster through a repartition topic, then counted. */
    REPARTITION("+ repartition by cluster", true, false),
    /** Re-keyed by cluster, then stored (changelogged) and counted: the engine's input path. */
    REPARTITION_AND_STORE("+ repartition by cluster + changelogged store", true, true);

    private final String label;
    private final boolean repartition;
    private final boolean store;

    Shape(final String label, final boolean repartition, final boolean store) {
      this.label = label;
      this.repartition = repartition;
      this.store = store;
    }

    String label() {
      return label;
    }
  }

  private final KafkaStreams streams;
  private final AtomicLong processed = new AtomicLong();
  private final String applicationId;
  private final Shape shape;

  FloorRun(
      final String bootstrapServers,
      final TopicCatalogue topics,
      final String guarantee,
      final Shape shape,
      final Path stateDir) {
    this.shape = shape;
    this.applicationId =
        "quotaflow-floor-"
            + shape.name().toLowerCase().replace('_', '-')
            + "-"
            + System.currentTimeMillis();
    final Properties properties =
        EngineRun.config(bootstrapServers, applicationId, stateDir, guarantee)
            .build()
            .kafkaProperties();
    this.streams = new KafkaStreams(topology(topics.pods(), shape).build(), properties);
  }

  private StreamsBuilder topology(final Topic<PodKey, PodState> pods, final Shape shape) {
    final StreamsBuilder builder = new StreamsBuilder();
    final KStream<PodKey, PodState> source =
        builder.stream(
            pods.name(),
            Consumed.with(pods.keySerde(), pods.valueSerde()).withName("floor-source"));
    final KStream<?, PodState> events =
        shape.repartition
            ? source
                .selectKey((key, value) -> key.getCluster(), Named.as("floor-by-cluster"))
                .repartition(
                    Repartitioned.with(Serdes.String(), pods.valueSerde()).withName("floor-events"))
            : source;
    if (shape.store) {
      builder.addStateStore(
          Stores.keyValueStoreBuilder(
              Stores.inMemoryKeyValueStore(Counting.STORE), Serdes.String(), pods.valueSerde()));
      events.process(
          () -> new Counting<>(processed, true), Named.as("floor-count"), Counting.STORE);
    } else {
      events.process(() -> new Counting<>(processed, false), Named.as("floor-count"));
    }
    return builder;
  }

  String applicationId() {
    return applicationId;
  }

  Shape shape() {
    return shape;
  }

  /**
   * Starts the application and waits (at most {@code limit}) until it has processed {@code
   * expected} pod records; returns the moments and the CPU time by part of the process.
   */
  EngineRun.Timing runUntilProcessed(final long expected, final Duration limit) {
    final long start = System.nanoTime();
    final CpuTime cpuAtStart = CpuTime.start();
    streams.start();
    final long deadline = start + limit.toNanos();
    long firstRead = 0;
    while (System.nanoTime() < deadline) {
      final KafkaStreams.State state = streams.state();
      if (state == KafkaStreams.State.ERROR || state == KafkaStreams.State.PENDING_ERROR) {
        throw new IllegalStateException("the floor application failed: " + state);
      }
      final long done = processed.get();
      final long now = System.nanoTime();
      if (firstRead == 0 && done > 0) {
        firstRead = now;
      }
      if (done >= expected) {
        return new EngineRun.Timing(start, firstRead, now, now, true, cpuSince(cpuAtStart));
      }
      LockSupport.parkNanos(POLL_NANOS);
    }
    final long now = System.nanoTime();
    return new EngineRun.Timing(start, firstRead, 0, now, false, cpuSince(cpuAtStart));
  }

  private Map<String, Long> cpuSince(final CpuTime cpuAtStart) {
    return cpuAtStart.since(this::threadCategory);
  }

  /** Which part of the process a thread belongs to, from its name (as {@link EngineRun} does). */
  private String threadCategory(final String thread) {
    if (thread.startsWith(applicationId) && thread.contains("-StreamThread-")) {
      return "floor's stream threads";
    }
    if (thread.contains(applicationId)) {
      return "floor's client network threads";
    }
    if (thread.startsWith("data-plane-kafka") || thread.startsWith("kafka-")) {
      return "broker: network and request handlers";
    }
    return "other Java threads (broker, bench)";
  }

  @Override
  public void close() {
    streams.close(Duration.ofSeconds(30));
    streams.cleanUp();
  }

  /** Counts the records it sees; stores each one first when asked to. */
  private static final class Counting<K> implements Processor<K, PodState, Void, Void> {
    static final String STORE = "floor-pods";

    private final AtomicLong processed;
    private final boolean store;
    private KeyValueStore<String, PodState> pods;

    Counting(final AtomicLong processed, final boolean store) {
      this.processed = processed;
      this.store = store;
    }

    @Override
    public void init(final ProcessorContext<Void, Void> context) {
      if (store) {
        pods = context.getStateStore(STORE);
      }
    }

    @Override
    public void process(final Record<K, PodState> record) {
      if (pods != null && record.value() != null) {
        pods.put(record.value().getUid(), record.value());
      }
      processed.incrementAndGet();
    }
  }
}
