package io.quotaflow.engine.memory;

import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.history.HistoryConfig;
import io.quotaflow.engine.store.StoreKind;
import io.quotaflow.history.HistoryTiers;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Whether the engine's memory fits its container, checked before it starts: the heap, the RocksDB
 * budget and an allowance for the JVM's own memory must fit the limit, or the engine refuses to
 * start with the arithmetic (a process the kernel kills after days, then again on every restore, is
 * worse than one that does not start). And what the history costs where it is on the heap, which
 * grows with groups and time rather than with anything the engine can check at start.
 *
 * @param maxHeap the heap's maximum, bytes
 * @param rocksDb the RocksDB budget when a store is in RocksDB, bytes
 * @param limit the container's memory limit, bytes, when it has one
 * @param historyWindowsPerGroup the most history windows one group keeps on the heap (0 when the
 *     history is off or in RocksDB)
 * @param copies how many copies of a task's state an instance may hold: 1, plus standbys
 */
public record MemoryFit(
    long maxHeap,
    OptionalLong rocksDb,
    OptionalLong limit,
    long historyWindowsPerGroup,
    int copies) {

  /**
   * Memory the JVM needs beside the heap and RocksDB: metaspace (about 90 MiB for the engine's
   * classes), thread stacks, code cache, direct buffers of the Kafka clients and Jetty.
   */
  public static final long NON_HEAP_ALLOWANCE = 256L * 1024 * 1024;

  /**
   * Heap bytes of one history window in an in-memory window store: about 250 serialized (the key
   * with its window start, the Avro value of a group with two to four resources:
   * docs/PERFORMANCE.md) plus the store's skip-list node, the key's {@code Bytes} wrapper and two
   * array headers.
   */
  public static final long HEAP_BYTES_PER_WINDOW = 512;

  private static final long MIB = 1024L * 1024;

  /** The fit of {@code config} in this process and its container. */
  public static MemoryFit of(final EngineConfig config) {
    return of(config, Runtime.getRuntime().maxMemory(), ContainerMemory.limit());
  }

  /** The fit of {@code config} with the given heap and container limit. */
  public static MemoryFit of(
      final EngineConfig config, final long maxHeap, final OptionalLong limit) {
    final boolean rocksDb =
        config.get(EngineSettings.STATE_STORES) == StoreKind.ROCKSDB
            || historyIn(config).filter(kind -> kind == StoreKind.ROCKSDB).isPresent();
    final long windows =
        historyIn(config).filter(kind -> kind == StoreKind.IN_MEMORY).isPresent()
            ? windowsPerGroup(config)
            : 0;
    final int standbys =
        Integer.parseInt(config.kafka(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG).orElse("0"));
    return new MemoryFit(
        maxHeap,
        rocksDb ? OptionalLong.of(config.get(EngineSettings.ROCKSDB_MEMORY)) : OptionalLong.empty(),
        limit,
        windows,
        1 + standbys);
  }

  /** Whether any of the engine's stores is in RocksDB. */
  public static boolean usesRocksDb(final EngineConfig config) {
    return config.get(EngineSettings.STATE_STORES) == StoreKind.ROCKSDB
        || historyIn(config).filter(kind -> kind == StoreKind.ROCKSDB).isPresent();
  }

  /**
   * The bytes the process needs at most besides what grows with the clusters: heap, RocksDB and the
   * allowance.
   */
  public long needed() {
    return maxHeap + rocksDb.orElse(0) + NON_HEAP_ALLOWANCE;
  }

  /** Whether it fits the container (always, without a limit). */
  public boolean fits() {
    return limit.isEmpty() || needed() <= limit.getAsLong();
  }

  /**
   * Refuses a configuration that does not fit its container.
   *
   * @throws IllegalStateException with the arithmetic and what to change
   */
  public MemoryFit requireFits() {
    if (!fits()) {
      throw new IllegalStateException(
          "The engine does not fit its container's memory limit: "
              + arithmetic()
              + " > the limit of "
              + mib(limit.getAsLong())
              + ". Lower the heap (-Xmx or -XX:MaxRAMPercentage in JAVA_TOOL_OPTIONS)"
              + (rocksDb.isPresent() ? " or " + EngineSettings.ROCKSDB_MEMORY.key() : "")
              + ", or raise the container's limit.");
    }
    return this;
  }

  /** The sum, term by term. */
  public String arithmetic() {
    return "heap "
        + mib(maxHeap)
        + (rocksDb.isPresent()
            ? " + RocksDB "
                + mib(rocksDb.getAsLong())
                + " ("
                + EngineSettings.ROCKSDB_MEMORY.key()
                + ")"
            : "")
        + " + "
        + mib(NON_HEAP_ALLOWANCE)
        + " for the JVM's own memory = "
        + mib(needed());
  }

  /**
   * The most heap one group's history takes (every window kept, on every copy of its task); 0 when
   * the history is not on the heap.
   */
  public long historyBytesPerGroup() {
    return historyWindowsPerGroup * HEAP_BYTES_PER_WINDOW * copies;
  }

  /**
   * How many groups whose levels change every step half the heap holds the history of; empty when
   * the history is not on the heap.
   */
  public OptionalLong historyGroupsInHalfTheHeap() {
    return historyWindowsPerGroup == 0
        ? OptionalLong.empty()
        : OptionalLong.of(maxHeap / 2 / historyBytesPerGroup());
  }

  /** The history's cost on the heap, for the start-up log; empty when it is not on the heap. */
  public Optional<String> historyCost() {
    if (historyWindowsPerGroup == 0) {
      return Optional.empty();
    }
    return Optional.of(
        String.format(
            Locale.ROOT,
            "the history is on the heap (%s=in_memory): a group whose levels change every step keeps"
                + " up to %,d windows of about %d bytes%s, %s; half the heap (%s) holds %,d such"
                + " groups. Busier organisations need %s=rocksdb.",
            EngineSettings.HISTORY_STORES.key(),
            historyWindowsPerGroup,
            HEAP_BYTES_PER_WINDOW,
            copies > 1 ? " on each of " + copies + " copies (standbys)" : "",
            mib(historyBytesPerGroup()),
            mib(maxHeap / 2),
            historyGroupsInHalfTheHeap().getAsLong(),
            EngineSettings.HISTORY_STORES.key()));
  }

  private static Optional<StoreKind> historyIn(final EngineConfig config) {
    return HistoryConfig.tiers(config).map(tiers -> config.get(EngineSettings.HISTORY_STORES));
  }

  /** The most windows a group keeps: one per step of each tier's time kept. */
  private static long windowsPerGroup(final EngineConfig config) {
    final HistoryTiers tiers = HistoryConfig.tiers(config).orElseThrow();
    return tiers.fineKept().toSeconds() / tiers.fineStep().toSeconds()
        + tiers.retention().toSeconds() / tiers.coarseStep().toSeconds();
  }

  private static String mib(final long bytes) {
    return bytes % MIB == 0
        ? String.format(Locale.ROOT, "%,d MiB", bytes / MIB)
        : String.format(Locale.ROOT, "%,.1f MiB", bytes / (double) MIB);
  }
}
