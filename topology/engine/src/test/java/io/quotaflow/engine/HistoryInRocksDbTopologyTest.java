package io.quotaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.memory.BoundedRocksDbMemory;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Every history case again with the history in RocksDB ({@code history.stores=rocksdb}, as the
 * manifests run it), under the shared memory budget of {@link BoundedRocksDbMemory}: the same
 * answers as on the heap.
 */
class HistoryInRocksDbTopologyTest extends HistoryTopologyTest {

  @Override
  EngineConfig.Builder settings() {
    return EngineDriver.settings().set(EngineSettings.HISTORY_STORES.key(), "rocksdb");
  }

  @Test
  void theHistoryIsInRocksDbUnderTheSharedBudgetAndTheOtherStoresStayOnTheHeap() {
    assertThat(
            engine
                .driver()
                .getWindowStore(TopologyNames.historyStore(Duration.ofMinutes(1)))
                .persistent())
        .isTrue();
    assertThat(engine.driver().getKeyValueStore(TopologyNames.RUNTIME_STORE).persistent())
        .isFalse();
    assertThat(BoundedRocksDbMemory.sharedBudget())
        .isEqualTo(EngineConfig.defaults().get(EngineSettings.ROCKSDB_MEMORY));
  }
}
