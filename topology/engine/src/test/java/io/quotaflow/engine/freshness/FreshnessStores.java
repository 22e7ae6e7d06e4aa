package io.quotaflow.engine.freshness;

import io.quotaflow.engine.store.InputId;
import io.quotaflow.schemas.internal.InputFreshness;
import io.quotaflow.serde.AvroSerde;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/** The {@code input-freshness} store in memory, through the real serdes, for the book's tests. */
final class FreshnessStores {

  private FreshnessStores() {}

  static KeyValueStore<InputId, InputFreshness> inMemory() {
    final KeyValueStore<InputId, InputFreshness> store =
        Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore("input-freshness"),
                InputId.serde(),
                AvroSerde.forValues(InputFreshness.class))
            .withLoggingDisabled()
            .build();
    store.init(new MockProcessorContext<>().getStateStoreContext(), store);
    return store;
  }
}
