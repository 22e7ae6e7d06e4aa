package io.quotaflow.engine.store;

import java.time.Duration;
import java.util.function.Function;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;

/**
 * Where the engine's stores keep their data. Both are backed by changelog topics, so either is
 * rebuilt after a crash or a move to another instance.
 */
public enum StoreKind {
  /**
   * On the heap, restored from the changelogs whenever a task starts. The engine holds every
   * cluster's state in memory anyway; this avoids RocksDB's per-access cost on the hot path.
   */
  IN_MEMORY(Stores::inMemoryKeyValueStore, Stores::inMemoryWindowStore),
  /** RocksDB under the state directory: a clean restart does not replay the changelogs. */
  ROCKSDB(Stores::persistentKeyValueStore, Stores::persistentWindowStore);

  /** How a window store of a kind is made. */
  private interface WindowStores {
    WindowBytesStoreSupplier make(
        String name, Duration retention, Duration windowSize, boolean retainDuplicates);
  }

  private final Function<String, KeyValueBytesStoreSupplier> supplier;
  private final WindowStores windows;

  StoreKind(
      final Function<String, KeyValueBytesStoreSupplier> supplier, final WindowStores windows) {
    this.supplier = supplier;
    this.windows = windows;
  }

  /**
   * The supplier of a window store of this kind named {@code name}, keeping windows of {@code size}
   * for {@code retention}, one value per key and window.
   */
  public WindowBytesStoreSupplier windowSupplier(
      final String name, final Duration retention, final Duration size) {
    return windows.make(name, retention, size, false);
  }

  /** The supplier of a store of this kind named {@code name}. */
  public KeyValueBytesStoreSupplier supplier(final String name) {
    return supplier.apply(name);
  }
}
