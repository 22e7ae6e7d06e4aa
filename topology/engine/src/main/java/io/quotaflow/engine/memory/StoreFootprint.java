package io.quotaflow.engine.memory;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeLogDirsOptions;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.TopologyDescription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How many bytes each store of this instance holds, measured as the bytes of its changelog
 * partitions that this instance's tasks (active and standby) restore from, read from the brokers'
 * log directories every interval. Kafka Streams measures no in-memory store, and the changelog is
 * what a restore reads back: a compacted changelog holds each key's latest value plus what the
 * cleaner has not removed yet, so the figure is an upper bound of the serialized state (docs/
 * engine.md, "Memory", says what the heap holds for it).
 *
 * <p>Exported per store ({@code quotaflow.engine.store.bytes}, tags {@code store} and {@code
 * where}: {@code heap} or {@code rocksdb}) and as the heap stores' share of the maximum heap
 * ({@code quotaflow.engine.stores.heap.share}), which the alert {@code
 * QuotaflowStoresOutgrowingTheHeap} watches.
 */
public final class StoreFootprint implements AutoCloseable {

  /** Bytes of one store's changelog partitions held here. */
  public static final String STORE_BYTES = "quotaflow.engine.store.bytes";

  /** The heap stores' bytes over the maximum heap. */
  public static final String HEAP_SHARE = "quotaflow.engine.stores.heap.share";

  private static final Logger LOG = LoggerFactory.getLogger(StoreFootprint.class);
  private static final int TIMEOUT_MS = 10_000;

  private final Supplier<Admin> admin;
  private final Supplier<Collection<ThreadMetadata>> threads;
  private final String applicationId;
  private final Map<Integer, Set<String>> storesBySubtopology;
  private final Map<String, Boolean> onHeap;
  private final long maxHeap;
  private final Duration interval;
  private final Map<String, Long> bytes = new ConcurrentHashMap<>();
  private final ScheduledExecutorService probe;

  /**
   * @param admin the admin client
   * @param threads this instance's stream threads' metadata (their tasks)
   * @param applicationId names the changelog topics
   * @param topology which stores each sub-topology's tasks hold
   * @param onHeap for each store, whether it is on the heap (in memory) rather than in RocksDB
   * @param maxHeap the heap's maximum, bytes
   * @param registry where the gauges go
   * @param interval how often to measure
   */
  public StoreFootprint(
      final Supplier<Admin> admin,
      final Supplier<Collection<ThreadMetadata>> threads,
      final String applicationId,
      final TopologyDescription topology,
      final Map<String, Boolean> onHeap,
      final long maxHeap,
      final MeterRegistry registry,
      final Duration interval) {
    this.admin = Objects.requireNonNull(admin, "admin");
    this.threads = Objects.requireNonNull(threads, "threads");
    this.applicationId = Objects.requireNonNull(applicationId, "applicationId");
    this.storesBySubtopology = storesBySubtopology(topology);
    this.onHeap = Map.copyOf(onHeap);
    this.maxHeap = maxHeap;
    this.interval = Objects.requireNonNull(interval, "interval");
    for (final Map.Entry<String, Boolean> store : this.onHeap.entrySet()) {
      bytes.put(store.getKey(), 0L);
      Gauge.builder(STORE_BYTES, () -> bytes.getOrDefault(store.getKey(), 0L))
          .description(
              "Bytes of the store's changelog partitions this instance's tasks hold (active and"
                  + " standby): an upper bound of the serialized state")
          .baseUnit("bytes")
          .tag("store", store.getKey())
          .tag("where", store.getValue() ? "heap" : "rocksdb")
          .register(registry);
    }
    Gauge.builder(HEAP_SHARE, this::heapShare)
        .description("Bytes of the stores on the heap over the maximum heap")
        .register(registry);
    this.probe =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              final Thread thread = new Thread(runnable, "quotaflow-store-footprint");
              thread.setDaemon(true);
              return thread;
            });
  }

  /** Starts measuring; the first measure runs after one interval (the tasks start meanwhile). */
  public StoreFootprint start() {
    final long every = interval.toMillis();
    probe.scheduleWithFixedDelay(this::measureQuietly, every, every, TimeUnit.MILLISECONDS);
    return this;
  }

  /** The last measure of {@code store}, bytes. */
  public long bytes(final String store) {
    return bytes.getOrDefault(store, 0L);
  }

  /** The heap stores' bytes over the maximum heap. */
  public double heapShare() {
    long sum = 0;
    for (final Map.Entry<String, Boolean> store : onHeap.entrySet()) {
      if (store.getValue()) {
        sum += bytes.getOrDefault(store.getKey(), 0L);
      }
    }
    return maxHeap <= 0 ? 0 : sum / (double) maxHeap;
  }

  private void measureQuietly() {
    try {
      measure();
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (final Exception e) {
      // Kafka away: keep the last measure; the health checks report the outage.
      LOG.debug("Could not measure the stores' changelogs", e);
    }
  }

  /** One measure: the changelog partitions held here, then their sizes on the brokers. */
  void measure() throws Exception {
    final Map<TopicPartition, String> held = heldChangelogs();
    final Collection<Node> brokers =
        admin
            .get()
            .describeCluster(new DescribeClusterOptions().timeoutMs(TIMEOUT_MS))
            .nodes()
            .get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
    final Map<Integer, Map<String, LogDirDescription>> dirs =
        admin
            .get()
            .describeLogDirs(
                brokers.stream().map(Node::id).toList(),
                new DescribeLogDirsOptions().timeoutMs(TIMEOUT_MS))
            .allDescriptions()
            .get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
    // Each replica of a partition holds about the same log: the largest copy counts once.
    final Map<TopicPartition, Long> sizes = new HashMap<>();
    for (final Map<String, LogDirDescription> broker : dirs.values()) {
      for (final LogDirDescription dir : broker.values()) {
        for (final Map.Entry<TopicPartition, ReplicaInfo> replica : dir.replicaInfos().entrySet()) {
          if (held.containsKey(replica.getKey())) {
            sizes.merge(replica.getKey(), replica.getValue().size(), Math::max);
          }
        }
      }
    }
    final Map<String, Long> measured = new HashMap<>();
    onHeap.keySet().forEach(store -> measured.put(store, 0L));
    sizes.forEach((partition, size) -> measured.merge(held.get(partition), size, Long::sum));
    bytes.putAll(measured);
  }

  /** The changelog partition of each store of each task this instance holds, with its store. */
  private Map<TopicPartition, String> heldChangelogs() {
    final Map<TopicPartition, String> held = new HashMap<>();
    for (final ThreadMetadata thread : threads.get()) {
      final Set<TaskMetadata> tasks = new HashSet<>(thread.activeTasks());
      tasks.addAll(thread.standbyTasks());
      for (final TaskMetadata task : tasks) {
        for (final String store :
            storesBySubtopology.getOrDefault(task.taskId().subtopology(), Set.of())) {
          if (onHeap.containsKey(store)) {
            held.put(new TopicPartition(changelog(store), task.taskId().partition()), store);
          }
        }
      }
    }
    return held;
  }

  private String changelog(final String store) {
    return applicationId + "-" + store + "-changelog";
  }

  private static Map<Integer, Set<String>> storesBySubtopology(final TopologyDescription topology) {
    final Map<Integer, Set<String>> stores = new HashMap<>();
    for (final TopologyDescription.Subtopology subtopology : topology.subtopologies()) {
      final Set<String> names = new HashSet<>();
      for (final TopologyDescription.Node node : subtopology.nodes()) {
        if (node instanceof TopologyDescription.Processor processor) {
          names.addAll(processor.stores());
        }
      }
      stores.put(subtopology.id(), Set.copyOf(names));
    }
    return Map.copyOf(stores);
  }

  /** The stores this footprint measures. */
  public List<String> stores() {
    return List.copyOf(onHeap.keySet());
  }

  @Override
  public void close() {
    probe.shutdownNow();
  }
}
