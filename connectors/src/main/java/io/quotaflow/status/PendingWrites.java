package io.quotaflow.status;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The groups whose status must be written at the next flush. A burst of updates to one group
 * becomes one write (the latest runtime wins, as it is looked up at flush time); groups are written
 * in the order they first became pending. Not thread-safe: the writer's thread owns it.
 */
final class PendingWrites<K> {

  private final Set<K> keys = new LinkedHashSet<>();

  /** Marks a group for the next flush; marking it again changes nothing. */
  void mark(final K key) {
    keys.add(key);
  }

  /** Forgets a group (its runtime was deleted). */
  void forget(final K key) {
    keys.remove(key);
  }

  /** The marked groups, in order, leaving none marked. */
  List<K> drain() {
    final List<K> drained = List.copyOf(keys);
    keys.clear();
    return drained;
  }

  boolean isEmpty() {
    return keys.isEmpty();
  }
}
