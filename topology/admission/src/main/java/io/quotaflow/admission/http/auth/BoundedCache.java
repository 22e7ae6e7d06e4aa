package io.quotaflow.admission.http.auth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Answers kept for a while, at most {@code maxEntries} of them: beyond, the least recently used is
 * dropped (issue 39). Its keys are small and of a fixed size (a token's digest, never the token),
 * so its memory is bounded by {@code maxEntries} times an entry's size, whatever callers send. Two
 * callers asking the same key at once may both ask; the answer is the same.
 */
final class BoundedCache<K, V> {

  private record Entry<V>(V value, Instant expires) {}

  private final Duration ttl;
  private final Clock clock;
  private final Map<K, Entry<V>> entries;

  BoundedCache(Duration ttl, Clock clock, int maxEntries) {
    if (maxEntries < 1) {
      throw new IllegalArgumentException("maxEntries must be at least 1: " + maxEntries);
    }
    this.ttl = ttl;
    this.clock = clock;
    this.entries =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<K, Entry<V>> eldest) {
            return size() > maxEntries;
          }
        };
  }

  /** The answer kept for {@code key}, or {@code ask}'s, kept from now on. */
  V get(K key, Supplier<V> ask) {
    final Instant now = clock.instant();
    synchronized (entries) {
      final Entry<V> held = entries.get(key);
      if (held != null && now.isBefore(held.expires())) {
        return held.value();
      }
    }
    // Asked outside the lock: the API server's answer takes time, other keys need not wait.
    final V value = ask.get();
    synchronized (entries) {
      entries.put(key, new Entry<>(value, now.plus(ttl)));
    }
    return value;
  }

  /** How many answers are kept. */
  int size() {
    synchronized (entries) {
      return entries.size();
    }
  }
}
