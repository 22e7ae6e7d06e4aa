package io.quotaflow.bench.admission;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * A store as the engine's in-memory stores keep it: serialized keys in order, serialized values,
 * each read deserializing with the engine's serdes. Writes are the benchmark's.
 */
final class SerializedStore<K, V> implements ReadOnlyKeyValueStore<K, V> {
  private final NavigableMap<Bytes, byte[]> data = new TreeMap<>();
  private final Serde<K> keys;
  private final Serde<V> values;

  SerializedStore(Serde<K> keys, Serde<V> values) {
    this.keys = keys;
    this.values = values;
  }

  void put(K key, V value) {
    data.put(
        Bytes.wrap(keys.serializer().serialize("", key)), values.serializer().serialize("", value));
  }

  void delete(K key) {
    data.remove(Bytes.wrap(keys.serializer().serialize("", key)));
  }

  @Override
  public V get(K key) {
    final byte[] value = data.get(Bytes.wrap(keys.serializer().serialize("", key)));
    return value == null ? null : values.deserializer().deserialize("", value);
  }

  @Override
  public <PS extends Serializer<P>, P> KeyValueIterator<K, V> prefixScan(P prefix, PS serializer) {
    final byte[] start = serializer.serialize("", prefix);
    // Up to the first key that does not start with the prefix, as the engine's stores scan.
    return iterator(
        data.tailMap(Bytes.wrap(start), true).entrySet().iterator(),
        key ->
            key.length >= start.length
                && Arrays.equals(key, 0, start.length, start, 0, start.length));
  }

  @Override
  public KeyValueIterator<K, V> range(K from, K to) {
    throw new UnsupportedOperationException();
  }

  @Override
  public KeyValueIterator<K, V> all() {
    return iterator(data.entrySet().iterator(), key -> true);
  }

  @Override
  public long approximateNumEntries() {
    return data.size();
  }

  private KeyValueIterator<K, V> iterator(
      Iterator<Map.Entry<Bytes, byte[]>> it, Predicate<byte[]> within) {
    return new KeyValueIterator<>() {
      private Map.Entry<Bytes, byte[]> next = advance();

      private Map.Entry<Bytes, byte[]> advance() {
        if (!it.hasNext()) {
          return null;
        }
        final Map.Entry<Bytes, byte[]> entry = it.next();
        return within.test(entry.getKey().get()) ? entry : null;
      }

      @Override
      public boolean hasNext() {
        return next != null;
      }

      @Override
      public KeyValue<K, V> next() {
        if (next == null) {
          throw new java.util.NoSuchElementException();
        }
        final Map.Entry<Bytes, byte[]> entry = next;
        next = advance();
        return KeyValue.pair(
            keys.deserializer().deserialize("", entry.getKey().get()),
            values.deserializer().deserialize("", entry.getValue()));
      }

      @Override
      public void close() {}

      @Override
      public K peekNextKey() {
        throw new UnsupportedOperationException();
      }
    };
  }
}
