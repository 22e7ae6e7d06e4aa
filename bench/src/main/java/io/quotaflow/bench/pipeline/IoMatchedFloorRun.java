package io.quotaflow.bench.pipeline;

import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.store.StoreKind;
import io.quotaflow.topics.ClusterPartitioner;
import io.quotaflow.topics.Topic;
import io.quotaflow.topics.TopicCatalogue;
import io.quotaflow.topics.TopicProvisioner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * The I/O-matched floor: a minimal Kafka Streams application with the engine's Kafka settings and
 * input path, writing as much as the engine writes, but doing none of its work. It reads the same
 * four inputs (pods, quotas, nodes, profiles: one sub-topology, each task the same partition of the
 * four, as the engine with inputs partitioned by cluster) and, like the engine, the eviction
 * results through a repartition by cluster; decodes each record's key and value with the
 * catalogue's deserializers; stores each input record's bytes in a changelogged store keyed by its
 * key bytes (the engine's cluster-inputs store holds the same records), padded with zeros to the
 * engine's sizes there ({@link InputPadding}: its keys and values are a little longer than the
 * input records'); and then, per input record, writes a deterministic share of outputs: for each
 * output the engine wrote in its measured run with the same guarantee ({@link IoProfile}: one store
 * changelog or one output topic), {@code records / inputs} records per input record (accumulated,
 * so a task's total is its share rounded), of the engine's average key and value sizes (the sizes
 * spread so that the byte totals match too), with keys cycling over as many distinct keys per task
 * as the engine's output had over its tasks. Stores are one changelogged store per engine store (of
 * the engine's {@code state.stores} kind), topics are copies of the engine's output topics ({@code
 * <prefix>io-floor.<topic>}, same configuration).
 *
 * <p>Like {@link FloorRun}, it stops counting when the last input record is processed, before the
 * transaction holding it commits: an upper bound for any topology reading and writing that much.
 */
final class IoMatchedFloorRun implements AutoCloseable {
  private static final long POLL_NANOS = Duration.ofMillis(5).toNanos();

  /** The floor's store of input records. */
  static final String INPUT_STORE = "io-inputs";

  private static final String STORE_PREFIX = "io-";
  private static final String PROCESSOR = "io-floor";
  private static final String FLOOR_TOPIC_INFIX = "io-floor.";

  private final KafkaStreams streams;
  private final AtomicLong processed = new AtomicLong();
  private final long expected;
  private final String applicationId;
  private final String guarantee;
  private final String bootstrapServers;

  /** Floor store or topic name -> the engine's name it stands for. */
  private final Map<String, String> names = new HashMap<>();

  private final List<String> floorTopics = new ArrayList<>();
  private final Map<TopicPartition, Long> topicsAtStart;

  /**
   * @param engine what the engine wrote for this workload
   * @param engineInputStore the engine's store of input records (its writes are the input path's,
   *     matched by storing each input record, not by the generated outputs)
   * @param engineSettings the engine settings of the bench run (Kafka settings among them apply)
   * @param padding how much longer the engine's stored inputs are than the input records
   * @param inputs how many input records to process (as many as the engine's run read): later ones
   *     are skipped
   */
  IoMatchedFloorRun(
      final String bootstrapServers,
      final TopicCatalogue topics,
      final int partitions,
      final String guarantee,
      final Path stateDir,
      final Map<String, String> engineSettings,
      final IoProfile engine,
      final String engineInputStore,
      final InputPadding padding,
      final long inputs) {
    this.expected = inputs;
    this.bootstrapServers = bootstrapServers;
    this.guarantee = guarantee;
    this.applicationId =
        "quotaflow-floor-io-matched-"
            + guarantee.replace('_', '-')
            + "-"
            + System.currentTimeMillis();
    final EngineConfig config =
        EngineRun.config(bootstrapServers, applicationId, stateDir, guarantee)
            .setAll(engineSettings)
            .build();
    final StoreKind storeKind = config.get(EngineSettings.STATE_STORES);

    final List<Planned> plans = new ArrayList<>();
    final List<Topic<?, ?>> toProvision = new ArrayList<>();
    names.put(INPUT_STORE, engineInputStore);
    for (final IoProfile.Output output : engine.outputs()) {
      if (output.kind() == IoProfile.Kind.STORE && output.name().equals(engineInputStore)) {
        continue;
      }
      final String floorName;
      if (output.kind() == IoProfile.Kind.STORE) {
        floorName = STORE_PREFIX + output.name();
      } else {
        final Topic<?, ?> engineTopic =
            topics
                .byName(output.name())
                .orElseThrow(() -> new IllegalArgumentException("not ours: " + output.name()));
        floorName =
            topics.prefix() + FLOOR_TOPIC_INFIX + output.name().substring(topics.prefix().length());
        toProvision.add(
            new Topic<>(
                floorName,
                Serdes.ByteArray(),
                Serdes.ByteArray(),
                engineTopic.cleanupPolicy(),
                engineTopic.configs()));
        floorTopics.add(floorName);
      }
      names.put(floorName, output.name());
      plans.add(
          new Planned(
              floorName,
              output.kind() == IoProfile.Kind.STORE,
              output.perInput(engine.inputs()),
              output.averageKeyBytes(),
              output.averageValueBytes(),
              Math.max(1, (output.distinctKeys() + partitions - 1) / partitions)));
    }
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
      new TopicProvisioner(admin, Duration.ofSeconds(30))
          .provision(toProvision, partitions, (short) 1);
    }
    this.topicsAtStart = IoProfile.endOffsets(bootstrapServers, floorTopics);

    final Properties properties = config.kafkaProperties();
    this.streams =
        new KafkaStreams(
            topology(topics, partitions, storeKind, List.copyOf(plans), padding), properties);
  }

  private Topology topology(
      final TopicCatalogue topics,
      final int partitions,
      final StoreKind storeKind,
      final List<Planned> plans,
      final InputPadding padding) {
    final StreamsBuilder builder = new StreamsBuilder();
    final Map<String, Decoder> decoders = new HashMap<>();
    KStream<byte[], byte[]> inputs = null;
    for (final Topic<?, ?> topic :
        List.of(topics.pods(), topics.quotas(), topics.nodes(), topics.profiles())) {
      final String shortName = topic.name().substring(topics.prefix().length());
      decoders.put(topic.name(), new Decoder(topic.keyDeserializer(), topic.valueDeserializer()));
      final KStream<byte[], byte[]> stream =
          builder.stream(
              topic.name(),
              Consumed.with(Serdes.ByteArray(), Serdes.ByteArray())
                  .withName("io-source-" + shortName));
      inputs = inputs == null ? stream : inputs.merge(stream, Named.as("io-merge-" + shortName));
    }
    // As the engine: results are keyed by pod on no particular partition, so they go to their
    // cluster's partition through a repartition topic (the bench writes none).
    final KStream<byte[], byte[]> results =
        builder.stream(
                topics.evictionResults().name(),
                Consumed.with(Serdes.ByteArray(), Serdes.ByteArray())
                    .withName("io-source-eviction-results"))
            .selectKey(
                (key, value) -> ClusterPartitioner.clusterOf(key).getBytes(StandardCharsets.UTF_8),
                Named.as("io-results-by-cluster-key"))
            .repartition(
                Repartitioned.<byte[], byte[]>as("io-results-by-cluster")
                    .withKeySerde(Serdes.ByteArray())
                    .withValueSerde(Serdes.ByteArray())
                    .withNumberOfPartitions(partitions)
                    .withStreamPartitioner(
                        (topic, key, value, count) ->
                            Optional.of(
                                Set.of(
                                    ClusterPartitioner.partitionOf(
                                        new String(key, StandardCharsets.UTF_8), count)))));
    final KStream<byte[], byte[]> events =
        inputs.merge(results, Named.as("io-merge-eviction-results"));

    final List<String> stores = new ArrayList<>();
    stores.add(INPUT_STORE);
    plans.stream().filter(Planned::store).map(Planned::name).forEach(stores::add);
    for (final String store : stores) {
      builder.addStateStore(
          Stores.keyValueStoreBuilder(
              storeKind.supplier(store), Serdes.ByteArray(), Serdes.ByteArray()));
    }
    events.process(
        () -> new IoProcessor(processed, expected, decoders, plans, padding),
        Named.as(PROCESSOR),
        stores.toArray(String[]::new));
    final Topology topology = builder.build();
    for (final Planned plan : plans) {
      if (!plan.store()) {
        topology.addSink(
            plan.sink(),
            plan.name(),
            new ByteArraySerializer(),
            new ByteArraySerializer(),
            PROCESSOR);
      }
    }
    return topology;
  }

  String guarantee() {
    return guarantee;
  }

  /**
   * Starts the application and waits (at most {@code limit}) until it has processed its input
   * records; returns the moments and the CPU time by part of the process.
   */
  EngineRun.Timing runUntilProcessed(final Duration limit) {
    final long start = System.nanoTime();
    final CpuTime cpuAtStart = CpuTime.start();
    streams.start();
    final long deadline = start + limit.toNanos();
    long firstRead = 0;
    while (System.nanoTime() < deadline) {
      final KafkaStreams.State state = streams.state();
      if (state == KafkaStreams.State.ERROR || state == KafkaStreams.State.PENDING_ERROR) {
        throw new IllegalStateException("the I/O-matched floor application failed: " + state);
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

  /**
   * What the floor wrote, under the engine's names: read back from the broker, so call it after
   * {@link #close()} (which commits the last transaction).
   */
  IoProfile written() {
    return IoProfile.measure(
        bootstrapServers, applicationId, names, floorTopics, topicsAtStart, processed.get());
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

  /**
   * One output the floor writes.
   *
   * @param name the floor's store or topic
   * @param store whether it is a store (else a topic, written through the sink {@link #sink()})
   * @param perInput records per input record
   * @param keyBytes average key size
   * @param valueBytes average value size
   * @param distinctPerTask how many distinct keys each task cycles over
   */
  private record Planned(
      String name,
      boolean store,
      double perInput,
      double keyBytes,
      double valueBytes,
      long distinctPerTask) {
    String sink() {
      return "io-sink-" + name;
    }
  }

  private record Decoder(Deserializer<?> keys, Deserializer<?> values) {}

  /**
   * How many bytes the floor adds to each stored input record so that its input store's changelog
   * carries as many bytes as the engine's (whose keys name the cluster, kind and object, and whose
   * values wrap the record read): averages, spread as the output sizes are.
   *
   * @param keyBytes added to each key
   * @param valueBytes added to each value (tombstones stay tombstones)
   */
  record InputPadding(double keyBytes, double valueBytes) {
    /**
     * The padding that makes {@code inputs} (the input topics, as read) weigh what the engine's
     * {@code store} of them does in {@code engine}; none where the engine's is smaller.
     */
    static InputPadding of(
        final IoProfile engine, final String store, final List<IoProfile.Output> inputs) {
      final IoProfile.Output stored = engine.find(IoProfile.Kind.STORE, store);
      final long records = inputs.stream().mapToLong(IoProfile.Output::records).sum();
      final long values = records - inputs.stream().mapToLong(IoProfile.Output::tombstones).sum();
      if (stored == null || stored.records() == 0 || records == 0) {
        return new InputPadding(0, 0);
      }
      final double inputKey =
          (double) inputs.stream().mapToLong(IoProfile.Output::keyBytes).sum() / records;
      final double inputRecord =
          (double) inputs.stream().mapToLong(IoProfile.Output::bytes).sum() / records;
      final double key = Math.max(0, stored.averageKeyBytes() - inputKey);
      final double rest = (double) stored.bytes() / stored.records() - inputRecord - key;
      return new InputPadding(key, values == 0 ? 0 : Math.max(0, rest * records / values));
    }
  }

  /** Stores each input, then writes its share of every planned output. */
  private static final class IoProcessor implements Processor<byte[], byte[], byte[], byte[]> {
    /** Value bytes are copied from here: incompressible, as varied as it gets. */
    private static final byte[] FILLER = new byte[1 << 16];

    static {
      new Random(26).nextBytes(FILLER);
    }

    private final AtomicLong processed;
    private final Map<String, Decoder> decoders;
    private final List<Planned> plans;
    private final double[] due;
    private final long[] written;
    private final List<KeyValueStore<byte[], byte[]>> stores = new ArrayList<>();
    private ProcessorContext<byte[], byte[]> context;
    private KeyValueStore<byte[], byte[]> inputs;
    private int partition;

    /** The last decoded key and value, kept so that decoding cannot be optimised away. */
    private Object lastKey;

    private Object lastValue;

    private final InputPadding padding;
    private final long expected;
    private long paddedKeys;
    private long paddedValues;

    IoProcessor(
        final AtomicLong processed,
        final long expected,
        final Map<String, Decoder> decoders,
        final List<Planned> plans,
        final InputPadding padding) {
      this.processed = processed;
      this.expected = expected;
      this.padding = padding;
      this.decoders = new LinkedHashMap<>(decoders);
      this.plans = plans;
      this.due = new double[plans.size()];
      this.written = new long[plans.size()];
    }

    @Override
    public void init(final ProcessorContext<byte[], byte[]> context) {
      this.context = context;
      this.inputs = context.getStateStore(INPUT_STORE);
      this.partition = context.taskId().partition();
      for (final Planned plan : plans) {
        stores.add(plan.store() ? context.getStateStore(plan.name()) : null);
      }
      // Rounded rather than truncated: a task's total is its share rounded to the nearest.
      Arrays.fill(due, 0.5);
    }

    @Override
    public void process(final Record<byte[], byte[]> record) {
      if (processed.get() >= expected) {
        return;
      }
      final String topic = context.recordMetadata().map(RecordMetadata::topic).orElse("");
      final Decoder decoder = decoders.get(topic);
      if (decoder != null) {
        lastKey = decoder.keys().deserialize(topic, record.key());
        if (record.value() != null) {
          lastValue = decoder.values().deserialize(topic, record.value());
        }
      }
      final byte[] key =
          padding.keyBytes() > 0
              ? Arrays.copyOf(
                  record.key(), record.key().length + size(paddedKeys++, padding.keyBytes()))
              : record.key();
      final byte[] value =
          padding.valueBytes() > 0 && record.value() != null
              ? Arrays.copyOf(
                  record.value(),
                  record.value().length + size(paddedValues++, padding.valueBytes()))
              : record.value();
      inputs.put(key, value);
      for (int i = 0; i < due.length; i++) {
        due[i] += plans.get(i).perInput();
        while (due[i] >= 1) {
          due[i] -= 1;
          write(i, record.timestamp());
        }
      }
      processed.incrementAndGet();
    }

    private void write(final int output, final long timestamp) {
      final Planned plan = plans.get(output);
      final long n = written[output]++;
      final byte[] key = new byte[size(n, plan.keyBytes())];
      final long id = n % plan.distinctPerTask();
      for (int b = 0; b < key.length; b++) {
        // The task's partition, then the key's number, then a fixed pattern.
        key[b] = b == 0 ? (byte) partition : b <= 8 ? (byte) (id >>> (8 * (b - 1))) : (byte) b;
      }
      final byte[] value = new byte[size(n, plan.valueBytes())];
      final int length = Math.min(value.length, FILLER.length);
      System.arraycopy(FILLER, (int) ((n * 61) % (FILLER.length - length + 1)), value, 0, length);
      if (plan.store()) {
        stores.get(output).put(key, value);
      } else {
        context.forward(new Record<>(key, value, timestamp), plan.sink());
      }
    }

    /** The n-th record's size: the sizes of records 0..n add up to (n + 1) * average, rounded. */
    private static int size(final long n, final double average) {
      return (int) (Math.round((n + 1) * average) - Math.round(n * average));
    }
  }
}
