package io.quotaflow.admission.http.auth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * {@link Access} whose answers are kept for a while, as kube-rbac-proxy keeps them: a token and a
 * question are asked of the API server once per {@code ttl}, not once per request. Refusals are
 * kept too, so that a flood of bad tokens does not become a flood of TokenReviews. At most {@code
 * maxEntries} answers are kept; beyond, the oldest are dropped.
 */
public final class CachedAccess implements Access {

  private record Entry<T>(T value, Instant expires) {}

  private record Question(
      User user, String verb, String group, String resource, String namespace) {}

  private final Access access;
  private final Duration ttl;
  private final Clock clock;
  private final int maxEntries;
  private final Map<String, Entry<Optional<User>>> tokens = new ConcurrentHashMap<>();
  private final Map<Question, Entry<Boolean>> answers = new ConcurrentHashMap<>();

  public CachedAccess(Access access, Duration ttl, Clock clock, int maxEntries) {
    this.access = access;
    this.ttl = ttl;
    this.clock = clock;
    this.maxEntries = maxEntries;
  }

  @Override
  public Optional<User> authenticate(String token) {
    return cached(tokens, token, () -> access.authenticate(token));
  }

  @Override
  public boolean allowed(User user, String verb, String group, String resource, String namespace) {
    return cached(
        answers,
        new Question(user, verb, group, resource, namespace),
        () -> access.allowed(user, verb, group, resource, namespace));
  }

  @Override
  public boolean allowedPath(User user, String verb, String path) {
    // No API group has a space in its name: the question cannot be taken for a resource's.
    return cached(
        answers,
        new Question(user, verb, " path", path, ""),
        () -> access.allowedPath(user, verb, path));
  }

  private <K, T> T cached(Map<K, Entry<T>> cache, K key, Supplier<T> ask) {
    final Instant now = clock.instant();
    final Entry<T> held = cache.get(key);
    if (held != null && now.isBefore(held.expires())) {
      return held.value();
    }
    final T value = ask.get();
    if (cache.size() >= maxEntries) {
      cache.entrySet().removeIf(entry -> !now.isBefore(entry.getValue().expires()));
      if (cache.size() >= maxEntries) {
        cache.clear();
      }
    }
    cache.put(key, new Entry<>(value, now.plus(ttl)));
    return value;
  }
}
