package io.quotaflow.source;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the topic holds for each key of one cluster and kind, as far as this source knows: the bytes
 * of the last value it wrote (or found in the topic at start), or "unconfirmed" when a write failed
 * and the topic may hold anything. Keys without a live value are absent.
 *
 * <p>Thread-safe without locks, because producer callbacks update it from the producer's I/O thread
 * while an event handler may be blocked in {@code send} holding the publisher's lock.
 */
final class SentRecords<K> {

  // Compared by identity: a real value is never this array.
  private static final byte[] UNCONFIRMED = new byte[0];

  private final ConcurrentHashMap<K, byte[]> live = new ConcurrentHashMap<>();

  /** Starts from what the topic held (tombstoned keys excluded). */
  void seed(final Map<K, byte[]> values) {
    live.putAll(values);
  }

  /** Whether the topic is known to hold exactly {@code value} for the key. */
  boolean holds(final K key, final byte[] value) {
    final byte[] last = live.get(key);
    return last != null && last != UNCONFIRMED && Arrays.equals(last, value);
  }

  /** Whether the topic may hold a live value for the key (so a delete needs a tombstone). */
  boolean isLive(final K key) {
    return live.containsKey(key);
  }

  /** Whether the last write for the key failed. */
  boolean isUnconfirmed(final K key) {
    return live.get(key) == UNCONFIRMED;
  }

  /** A value was handed to the producer. */
  void wrote(final K key, final byte[] value) {
    live.put(key, value);
  }

  /** A tombstone was handed to the producer. */
  void tombstoned(final K key) {
    live.remove(key);
  }

  /**
   * Writing {@code value} failed: unless a newer write has replaced it, the topic's content is no
   * longer known.
   */
  void valueFailed(final K key, final byte[] value) {
    live.computeIfPresent(key, (k, last) -> last == value ? UNCONFIRMED : last);
  }

  /** Writing a tombstone failed: the old value may still be live. */
  void tombstoneFailed(final K key) {
    live.putIfAbsent(key, UNCONFIRMED);
  }

  /** Whether some write failed and was not repeated since. */
  boolean hasUnconfirmed() {
    for (final byte[] value : live.values()) {
      if (value == UNCONFIRMED) {
        return true;
      }
    }
    return false;
  }

  /**
   * The keys that may have a live value in the topic, a copy. A HashSet, not Set.copyOf: the
   * immutable set probes linearly on the keys' own hash codes, and the Avro keys of pods named
   * alike (worker-0 of team-001, team-002, ...) hash into long runs that made each lookup scan
   * thousands of keys (issue 32).
   */
  Set<K> keys() {
    return new HashSet<>(live.keySet());
  }

  int size() {
    return live.size();
  }
}
