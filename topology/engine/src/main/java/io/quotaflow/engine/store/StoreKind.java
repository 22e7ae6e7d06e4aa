package io.quotaflow.engine.store;

import java.util.function.Function;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.Stores;

/**
 * Where the engine's stores keep their data. Both are backed by changelog topics, so either is
 * rebuilt after a crash or a move to another instance.
 */
public enum StoreKind {
  /**
   * On the heap, restored from the changelogs whenever a task starts. The engine holds every
   * cluster's state in memory anyway; this avoids RocksDB's per-access cost on the hot path.
   */
  IN_MEMORY(Stores::inMemoryKeyValueStore),
  /** RocksDB under the state directory: a clean restart does not replay the changelogs. */
  ROCKSDB(Stores::persistentKeyValueStore);

  private final Function<String, KeyValueBytesStoreSupplier> supplier;

  StoreKind(final Function<String, KeyValueBytesStoreSupplier> supplier) {
    this.supplier = supplier;
  }

  /** The supplier of a store of this kind named {@code name}. */
  public KeyValueBytesStoreSupplier supplier(final String name) {
    return supplier.apply(name);
  }
}
