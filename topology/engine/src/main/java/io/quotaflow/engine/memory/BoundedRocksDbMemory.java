package io.quotaflow.engine.memory;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;

/**
 * Puts every RocksDB store of the process under one memory budget: one LRU cache holds the data,
 * index and filter blocks of all stores and is charged for their write buffers too (Kafka Streams'
 * documented bounded-memory set-up). Without it each store, and each segment of a window store,
 * allocates its own 50 MiB cache and 3 write buffers of 16 MiB: the history's segments alone, per
 * task, would take more than the container has.
 *
 * <p>The budget is the first configuration's {@link #MEMORY_CONFIG}: the cache is shared by the
 * process, as the engine runs once per process (tests that start several share the first's).
 */
public final class BoundedRocksDbMemory implements RocksDBConfigSetter {

  /** The Kafka Streams property carrying {@code rocksdb.memory} in bytes. */
  public static final String MEMORY_CONFIG = "quotaflow.rocksdb.memory.bytes";

  /** Write buffers may take at most this share of the budget; the rest caches blocks. */
  private static final double WRITE_BUFFER_SHARE = 0.25;

  /** The share of the cache kept for index and filter blocks (high priority). */
  private static final double INDEX_AND_FILTER_SHARE = 0.1;

  private static final long WRITE_BUFFER_SIZE = 8L * 1024 * 1024;

  private static Cache cache;
  private static WriteBufferManager writeBuffers;

  @Override
  public void setConfig(
      final String storeName, final Options options, final Map<String, Object> configs) {
    final BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
    table.setBlockCache(cache(budget(configs)));
    table.setCacheIndexAndFilterBlocks(true);
    table.setCacheIndexAndFilterBlocksWithHighPriority(true);
    table.setPinTopLevelIndexAndFilter(true);
    options.setWriteBufferManager(writeBuffers);
    options.setWriteBufferSize(WRITE_BUFFER_SIZE);
    options.setMaxWriteBufferNumber(2);
    options.setTableFormatConfig(table);
  }

  @Override
  public void close(final String storeName, final Options options) {
    // The cache and the write buffer manager are shared by every store: never closed with one.
  }

  /** The budget the process's stores share; 0 until the first store is configured. */
  public static synchronized long sharedBudget() {
    return cache == null ? 0 : budget;
  }

  private static long budget;

  private static synchronized Cache cache(final long bytes) {
    if (cache == null) {
      budget = bytes;
      cache = new LRUCache(bytes, -1, false, INDEX_AND_FILTER_SHARE);
      writeBuffers = new WriteBufferManager((long) (bytes * WRITE_BUFFER_SHARE), cache);
    }
    return cache;
  }

  private static long budget(final Map<String, Object> configs) {
    final Object value = configs.get(MEMORY_CONFIG);
    if (value == null) {
      throw new IllegalStateException(
          MEMORY_CONFIG + " is not set: the engine sets it with " + BoundedRocksDbMemory.class);
    }
    return Long.parseLong(value.toString());
  }
}
