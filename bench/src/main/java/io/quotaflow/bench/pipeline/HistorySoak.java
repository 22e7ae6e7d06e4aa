package io.quotaflow.bench.pipeline;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.engine.QuotaTopology;
import io.quotaflow.engine.TopologyNames;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.history.HistoryConfig;
import io.quotaflow.engine.history.HistoryQueries;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.history.HistoryMetric;
import io.quotaflow.history.HistoryStep;
import io.quotaflow.history.HistoryTiers;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.schemas.internal.GroupHistoryWindow;
import io.quotaflow.serde.AvroSerde;
import io.quotaflow.topics.TopicCatalogue;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.internals.WindowKeySchema;

/**
 * The history soak, time-compressed (issue 40.2): the engine's topology in Kafka Streams' test
 * driver, its wall clock driven by the bench one minute at a time, plays days of pod churn over
 * 10,000 groups (10 clusters of 1,000) and samples, every few simulated hours, the heap after a
 * full GC, the state directory's bytes and the history windows kept. At the end it checks the
 * history's totals of sampled groups, over the last day and over the whole retention, against the
 * exact integrals of the runtime records the engine emitted for them; then writes the history's
 * changelog to a real broker (in process) and times a real engine's restore of it on an empty state
 * directory, as a task moved to a new instance would. Run it with the engine's heap of the
 * manifests (-Xmx1229m) to see the default configuration fit.
 *
 * <p>Options ({@code --name value}): days (16: two past the retention), clusters (10), groups (per
 * cluster, 1,000), pods (20,000), events (pod events per simulated minute, 1,000: each leaf changes
 * about six times an hour), sample-hours (12), history-stores (rocksdb, as the manifests; or
 * in_memory), checked (groups whose totals are checked, 20). Run by bench/run-history-soak.sh.
 */
public final class HistorySoak {
  private static final PrintStream OUT = System.out;
  private static final Instant START = Instant.parse("2026-03-01T00:00:00Z");
  private static final Duration MINUTE = Duration.ofMinutes(1);
  private static final String APPLICATION_ID = "history-soak";

  private final Map<String, String> options;
  private final Workload workload;
  private final TopicCatalogue topics = TopicCatalogue.withPrefix("");
  private final EngineConfig config;
  private final Path stateDir;
  private final List<QuotaKey> checked = new ArrayList<>();
  private final Map<QuotaKey, List<KeyValue<Long, Long>>> usedOverTime = new HashMap<>();
  private TopologyTestDriver driver;
  private Instant now = START;
  private long podCursor;

  private HistorySoak(final Map<String, String> options) throws IOException {
    this.options = options;
    final int clusters = integer("clusters", 10);
    this.workload =
        new Workload(
            new WorkloadShape(clusters, integer("groups", 1_000), integer("pods", 20_000), 0));
    this.config = EngineConfig.builder().setAll(configMap()).build();
    this.stateDir = Files.createTempDirectory("quotaflow-history-soak");
    final List<QuotaKey> leaves = workload.leafKeys();
    final int every = Math.max(1, leaves.size() / integer("checked", 20));
    for (int i = 0; i < leaves.size(); i += every) {
      checked.add(leaves.get(i));
      usedOverTime.put(leaves.get(i), new ArrayList<>());
    }
  }

  /** The engine's settings in the driver and in the restore. */
  private Map<String, String> configMap() {
    return Map.of(
        EngineSettings.TOPIC_PARTITIONS.key(), "1",
        EngineSettings.INPUTS_MARKERS_REQUIRED.key(), "false",
        EngineSettings.RECLAIM_ENABLED.key(), "false",
        EngineSettings.HISTORY_STORES.key(), options.getOrDefault("history-stores", "rocksdb"));
  }

  private HistoryTiers tiers() {
    return HistoryConfig.tiers(config).orElseThrow();
  }

  /** Runs the soak; see the class comment for the options. */
  public static void main(final String[] args) throws Exception {
    new HistorySoak(options(args)).run();
  }

  private void run() {
    final int days = integer("days", 16);
    final int eventsPerMinute = integer("events", 1_000);
    final int sampleMinutes = integer("sample-hours", 12) * 60;
    OUT.printf(
        Locale.ROOT,
        "History soak: %d clusters, %,d groups (%,d leaves), %,d pods, %,d pod events per simulated"
            + " minute, %d days; history %s, %s; max heap %,d MiB%n",
        workload.shape().clusters(),
        workload.shape().clusters() * workload.shape().groupsPerCluster(),
        workload.leafCount(),
        workload.shape().pods(),
        eventsPerMinute,
        days,
        config.get(EngineSettings.HISTORY_STORES),
        tiers(),
        Runtime.getRuntime().maxMemory() >> 20);
    final long wallStart = System.nanoTime();
    open();
    final TestInputTopic<io.quotaflow.schemas.PodKey, io.quotaflow.schemas.PodState> pods =
        driver.createInputTopic(
            topics.pods().name(), topics.pods().keySerializer(), topics.pods().valueSerializer());
    fill(pods);
    OUT.printf(
        Locale.ROOT,
        "%-6s %-20s %12s %14s %14s %10s%n",
        "day",
        "simulated time",
        "heap MiB",
        "state dir MiB",
        "windows",
        "wall s");
    final long minutes = days * 24L * 60;
    for (long minute = 1; minute <= minutes; minute++) {
      for (int e = 0; e < eventsPerMinute; e++) {
        final Workload.PodEvent event = workload.event((int) (podCursor++ % workload.podCount()));
        pods.pipeInput(event.key(), event.value(), now);
      }
      advance();
      if (minute % sampleMinutes == 0) {
        sample(wallStart);
      }
    }
    check();
    final List<KeyValue<byte[], byte[]>> changelog = historyChangelog();
    driver.close();
    deleteQuietly(stateDir);
    HistoryRestore.time(APPLICATION_ID, configMap(), changelog, changelogTopics);
  }

  /**
   * The history stores' windows as their changelog holds them once compacted: Kafka Streams'
   * window-store key (the group's bytes, the window's start, sequence 0) and the Avro value. Read
   * from the stores at the end rather than kept from the driver's changelog output, which would put
   * the whole changelog on this JVM's heap while the heap is measured.
   */
  private List<KeyValue<byte[], byte[]>> historyChangelog() {
    final List<KeyValue<byte[], byte[]>> records = new ArrayList<>();
    final var keys = GroupId.serde().serializer();
    final var values = AvroSerde.forValues(GroupHistoryWindow.class).serializer();
    for (final String store : historyStores()) {
      final WindowStore<GroupId, GroupHistoryWindow> windows = driver.getWindowStore(store);
      try (KeyValueIterator<Windowed<GroupId>, GroupHistoryWindow> all = windows.all()) {
        while (all.hasNext()) {
          final KeyValue<Windowed<GroupId>, GroupHistoryWindow> window = all.next();
          records.add(
              KeyValue.pair(
                  WindowKeySchema.toStoreKeyBinary(
                          Bytes.wrap(keys.serialize(store, window.key.key())),
                          window.key.window().start(),
                          0)
                      .get(),
                  values.serialize(store, window.value)));
        }
      }
      changelogTopics.put(store, records.size());
    }
    return records;
  }

  private final Map<String, Integer> changelogTopics = new java.util.LinkedHashMap<>();

  private void open() {
    final Properties properties =
        QuotaTopology.streamsProperties(
            topics, config, new EngineMetrics(new SimpleMeterRegistry()));
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID);
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    driver =
        new TopologyTestDriver(
            QuotaTopology.build(topics, config, new EngineMetrics(new SimpleMeterRegistry())),
            properties,
            now);
  }

  /** Every cluster's quotas, nodes and first pod versions, then one recomputation. */
  private void fill(
      final TestInputTopic<io.quotaflow.schemas.PodKey, io.quotaflow.schemas.PodState> pods) {
    final TestInputTopic<QuotaKey, io.quotaflow.schemas.QuotaSpec> quotas =
        driver.createInputTopic(
            topics.quotas().name(),
            topics.quotas().keySerializer(),
            topics.quotas().valueSerializer());
    final TestInputTopic<io.quotaflow.schemas.NodeKey, io.quotaflow.schemas.NodeState> nodes =
        driver.createInputTopic(
            topics.nodes().name(),
            topics.nodes().keySerializer(),
            topics.nodes().valueSerializer());
    workload.nodes().forEach((key, value) -> nodes.pipeInput(key, value, now));
    workload.quotas().forEach((key, value) -> quotas.pipeInput(key, value, now));
    for (int pod = 0; pod < workload.podCount(); pod++) {
      final Workload.PodEvent event = workload.event(pod);
      pods.pipeInput(event.key(), event.value(), now);
    }
    advance();
  }

  /** One simulated minute passes: the engine's punctuations run, its outputs are read. */
  private void advance() {
    now = now.plus(MINUTE);
    driver.advanceWallClockTime(MINUTE);
    drain();
  }

  /**
   * Reads every record the driver holds for its outputs (it keeps them until read): the runtime
   * records of the checked groups are kept, the rest dropped, changelogs included.
   */
  private void drain() {
    final TestOutputTopic<QuotaKey, GroupRuntime> runtime =
        driver.createOutputTopic(
            topics.runtime().name(),
            topics.runtime().keyDeserializer(),
            topics.runtime().valueDeserializer());
    while (!runtime.isEmpty()) {
      final var record = runtime.readRecord();
      final List<KeyValue<Long, Long>> series = usedOverTime.get(record.key());
      if (series != null) {
        final long used =
            record.value() == null ? 0 : record.value().getUsed().getOrDefault("cpu", 0L);
        series.add(KeyValue.pair(record.timestamp(), used));
      }
    }
    for (final String topic : driver.producedTopicNames()) {
      if (!topic.equals(topics.runtime().name())) {
        final TestOutputTopic<byte[], byte[]> other =
            driver.createOutputTopic(
                topic, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        while (!other.isEmpty()) {
          other.readRecord();
        }
      }
    }
  }

  private void sample(final long wallStart) {
    System.gc();
    System.gc();
    final long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    OUT.printf(
        Locale.ROOT,
        "%-6.1f %-20s %12.1f %14.1f %,14d %10.0f%n",
        Duration.between(START, now).toMinutes() / 1440.0,
        now,
        heap / 1048576.0,
        directoryBytes(stateDir) / 1048576.0,
        windows(),
        (System.nanoTime() - wallStart) / 1e9);
  }

  private long windows() {
    long count = 0;
    for (final String store : historyStores()) {
      final WindowStore<GroupId, GroupHistoryWindow> windows = driver.getWindowStore(store);
      try (KeyValueIterator<Windowed<GroupId>, GroupHistoryWindow> all = windows.all()) {
        while (all.hasNext()) {
          all.next();
          count++;
        }
      }
    }
    return count;
  }

  private List<String> historyStores() {
    return driver.getAllStateStores().keySet().stream()
        .filter(TopologyNames::isHistoryStore)
        .sorted()
        .toList();
  }

  /**
   * The history's totals of the checked groups against the integrals of the runtime records the
   * engine emitted: over the last whole day, and over the whole retention before the end.
   */
  private void check() {
    final HistoryTiers tiers = tiers();
    final Duration retention = tiers.retention();
    final Instant end = Instant.ofEpochMilli(now.toEpochMilli() / 3_600_000 * 3_600_000);
    final HistoryQueries history =
        new HistoryQueries(
            driver.getWindowStore(TopologyNames.historyStore(tiers.fineStep())),
            driver.getWindowStore(TopologyNames.historyStore(tiers.coarseStep())),
            tiers);
    int equal = 0;
    int differ = 0;
    for (final Duration period :
        List.of(Duration.ofDays(1), retention.minus(Duration.ofHours(1)))) {
      final Instant from = end.minus(period);
      for (final QuotaKey group : checked) {
        final HistoryStep total =
            history
                .totals(group.getCluster(), List.of(group.getName()), from, end, now)
                .get(group.getName());
        final BigInteger kept = total.integrals().get(ResourceList.CPU, HistoryMetric.USED);
        final BigInteger exact = integral(usedOverTime.get(group), from, end);
        if (kept.equals(exact)) {
          equal++;
        } else {
          differ++;
          OUT.printf(
              Locale.ROOT,
              "MISMATCH %s/%s over [%s, %s): history %s, runtime records %s%n",
              group.getCluster(),
              group.getName(),
              from,
              end,
              kept,
              exact);
        }
      }
    }
    OUT.printf(
        Locale.ROOT,
        "History totals of used cpu against the runtime records' integrals (last day and last %s):"
            + " %d equal, %d differ%n",
        retention.minus(Duration.ofHours(1)),
        equal,
        differ);
  }

  /** The integral over [from, to) of the levels of {@code series}, each until the next. */
  private static BigInteger integral(
      final List<KeyValue<Long, Long>> series, final Instant from, final Instant to) {
    BigInteger sum = BigInteger.ZERO;
    for (int i = 0; i < series.size(); i++) {
      final long begin = series.get(i).key;
      final long stop = i + 1 < series.size() ? series.get(i + 1).key : Long.MAX_VALUE;
      final long overlap = Math.min(stop, to.toEpochMilli()) - Math.max(begin, from.toEpochMilli());
      if (overlap > 0) {
        sum =
            sum.add(BigInteger.valueOf(series.get(i).value).multiply(BigInteger.valueOf(overlap)));
      }
    }
    return sum;
  }

  private static long directoryBytes(final Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(Files::isRegularFile)
          .mapToLong(
              file -> {
                try {
                  return Files.size(file);
                } catch (final IOException gone) {
                  return 0;
                }
              })
          .sum();
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void deleteQuietly(final Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
    } catch (final IOException ignored) {
      // a temporary directory
    }
  }

  private int integer(final String name, final int fallback) {
    return Integer.parseInt(options.getOrDefault(name, Integer.toString(fallback)));
  }

  private static Map<String, String> options(final String[] args) {
    final Map<String, String> options = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("expected --name value, got " + args[i]);
      }
      options.put(args[i].substring(2), args[i + 1]);
    }
    return options;
  }
}
