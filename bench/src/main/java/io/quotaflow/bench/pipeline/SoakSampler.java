package io.quotaflow.bench.pipeline;

import com.sun.management.UnixOperatingSystemMXBean;
import io.quotaflow.engine.metrics.EngineMetrics;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Takes the soak benchmark's samples: the process's memory, files and threads, the engine's state
 * directory, the topics' sizes on the broker's disk, and, over the interval since the previous
 * sample, the rates, the engine's lag and the latency of pod events. Runs on the main thread; the
 * heap is measured after {@code System.gc()}, which stalls the writer too (it then catches up).
 */
final class SoakSampler implements AutoCloseable {
  private static final double MIB = 1024.0 * 1024.0;

  private final Admin admin;
  private final EngineRun run;
  private final SoakLoad load;
  private final RuntimeWatcher watcher;
  private final String topicPrefix;
  private final List<TopicPartition> inputPartitions;
  private final int brokerId;
  private long markNanos;
  private long markEvents;
  private double markRead;
  private Histogram markLatencies;
  private long markGcMillis;

  /**
   * @param inputTopics the input topics the engine reads, for its lag
   * @param topicPrefix the catalogue's prefix, which names the input and output topics
   */
  SoakSampler(
      final String bootstrapServers,
      final EngineRun run,
      final SoakLoad load,
      final RuntimeWatcher watcher,
      final List<String> inputTopics,
      final String topicPrefix)
      throws ExecutionException, InterruptedException {
    this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
    this.run = run;
    this.load = load;
    this.watcher = watcher;
    this.topicPrefix = topicPrefix;
    this.inputPartitions =
        admin.describeTopics(inputTopics).allTopicNames().get().values().stream()
            .flatMap(SoakSampler::partitions)
            .toList();
    this.brokerId = admin.describeCluster().nodes().get().iterator().next().id();
    mark();
  }

  private static java.util.stream.Stream<TopicPartition> partitions(final TopicDescription topic) {
    return topic.partitions().stream().map(p -> new TopicPartition(topic.name(), p.partition()));
  }

  /** Starts an interval: the next sample's rates and latencies count from now. */
  void mark() {
    markNanos = System.nanoTime();
    markEvents = load.podEvents();
    markRead = run.recordsRead();
    markLatencies = watcher.latencies();
    markGcMillis = gcMillis();
  }

  /** The sample at {@code minute}, over the interval since the last mark; then marks. */
  SoakSample sample(final double minute) throws ExecutionException, InterruptedException {
    final long now = System.nanoTime();
    final double seconds = (now - markNanos) / 1e9;
    final long events = load.podEvents();
    final double read = run.recordsRead();
    final Histogram latencies = watcher.latencies();
    final Histogram interval = latencies.copy();
    interval.subtract(markLatencies);
    final Map<SoakMetric, Double> values = new EnumMap<>(SoakMetric.class);
    values.put(SoakMetric.OFFERED, (events - markEvents) / seconds);
    values.put(SoakMetric.READ, (read - markRead) / seconds);
    values.put(SoakMetric.LATENCY_P50, millis(interval, 50));
    values.put(SoakMetric.LATENCY_P99, millis(interval, 99));
    markNanos = now;
    markEvents = events;
    markRead = read;
    markLatencies = latencies;

    values.put(SoakMetric.LAG, (double) lag());
    values.put(
        SoakMetric.STALENESS, Math.max(0, run.gauges(EngineMetrics.INPUTS_STALENESS).getMax()));
    values.put(SoakMetric.SUSPENDED, run.gauges(EngineMetrics.RECLAIM_SUSPENDED).getSum());
    final TopicBytes topics = topicBytes();
    values.put(SoakMetric.CHANGELOGS, topics.changelogs() / MIB);
    values.put(SoakMetric.TOPICS, topics.catalogue() / MIB);
    final Footprint footprint = Footprint.now(run.stateDir());
    values.put(SoakMetric.HEAP, footprint.heapAfterGcBytes() / MIB);
    values.put(SoakMetric.RSS, footprint.rssBytes() / MIB);
    values.put(SoakMetric.STATE_DIR, footprint.stateBytes() / 1024.0);
    values.put(SoakMetric.OPEN_FILES, (double) openFiles());
    values.put(SoakMetric.THREADS, (double) ManagementFactory.getThreadMXBean().getThreadCount());
    // After the forced GC, so that its pause counts in this minute, as its effect on latency does.
    final long gc = gcMillis();
    values.put(SoakMetric.GC_TIME, (double) (gc - markGcMillis));
    markGcMillis = gc;
    return new SoakSample(minute, values);
  }

  private static double millis(final Histogram micros, final double percentile) {
    return micros.getTotalCount() == 0 ? 0 : micros.getValueAtPercentile(percentile) / 1_000.0;
  }

  /** Milliseconds the collectors' pauses took so far (G1: young, mixed and full collections). */
  private static long gcMillis() {
    return ManagementFactory.getGarbageCollectorMXBeans().stream()
        .mapToLong(GarbageCollectorMXBean::getCollectionTime)
        .filter(t -> t > 0)
        .sum();
  }

  /** Input records not yet committed by the engine (its consumer group's offsets). */
  private long lag() throws ExecutionException, InterruptedException {
    final Map<TopicPartition, OffsetAndMetadata> committed =
        admin.listConsumerGroupOffsets(run.applicationId()).partitionsToOffsetAndMetadata().get();
    final Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    inputPartitions.forEach(p -> latest.put(p, OffsetSpec.latest()));
    final var ends = admin.listOffsets(latest).all().get();
    long lag = 0;
    for (final TopicPartition partition : inputPartitions) {
      final OffsetAndMetadata offset = committed.get(partition);
      lag += ends.get(partition).offset() - (offset == null ? 0 : offset.offset());
    }
    return lag;
  }

  /** Bytes on the broker's disk of the engine's changelogs and of the catalogue's topics. */
  private TopicBytes topicBytes() throws ExecutionException, InterruptedException {
    long changelogs = 0;
    long catalogue = 0;
    final Map<String, LogDirDescription> dirs =
        admin.describeLogDirs(List.of(brokerId)).descriptions().get(brokerId).get();
    for (final LogDirDescription dir : dirs.values()) {
      for (final Map.Entry<TopicPartition, ReplicaInfo> replica : dir.replicaInfos().entrySet()) {
        final String topic = replica.getKey().topic();
        if (topic.startsWith(run.applicationId()) && topic.endsWith("-changelog")) {
          changelogs += replica.getValue().size();
        } else if (topic.startsWith(topicPrefix)) {
          catalogue += replica.getValue().size();
        }
      }
    }
    return new TopicBytes(changelogs, catalogue);
  }

  private static long openFiles() {
    final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    return os instanceof UnixOperatingSystemMXBean unix ? unix.getOpenFileDescriptorCount() : -1;
  }

  @Override
  public void close() {
    admin.close();
  }

  private record TopicBytes(long changelogs, long catalogue) {}
}
