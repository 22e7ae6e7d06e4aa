package io.quotaflow.status;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.quotaflow.schemas.QuotaKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Notices another writer of the fields the status writer writes, and tells the writer when to leave
 * an object alone: the state of each object the writer wrote, by group.
 *
 * <p><b>Overwrite.</b> The writer's last write to an object is remembered (its uid, the resource
 * version the API server answered, the status written). When the object is seen at a newer resource
 * version showing some of those fields otherwise, someone else changed them: an overwrite. Where
 * the API server keeps {@code metadata.managedFields}, the manager owning the changed fields names
 * that writer, and a change owned by the writer's own field manager (another quotaflow replica) is
 * not counted. Each write is overwritten at most once.
 *
 * <p><b>Conflict.</b> {@link ConflictSettings#overwrites()} overwrites within {@link
 * ConflictSettings#window()} put the object in conflict: it is not written for {@link
 * ConflictSettings#backoff(int)}, then written once more (the retry). A retry overwritten again
 * doubles the wait, up to the maximum; a retry that stands for one {@link
 * ConflictSettings#backoff()} ends the conflict.
 *
 * <p>The writer's thread calls everything but {@link #inConflict(String)}, which a meter reads.
 */
final class StatusConflicts {

  /**
   * An overwrite seen on an object.
   *
   * @param fields the fields changed, as {@code metadata.annotations.NAME} or {@code status.used}
   * @param managers the field managers owning them now, without the writer's; empty when the API
   *     server keeps no managed fields
   * @param recent overwrites of the object within the window, this one included
   * @param conflict whether the object is in conflict now
   * @param entered whether this overwrite put it in conflict (false: it was already, and the wait
   *     grew)
   * @param holdFor how long the object is left alone now; zero when not in conflict
   */
  record Overwrite(
      List<String> fields,
      Set<String> managers,
      int recent,
      boolean conflict,
      boolean entered,
      Duration holdFor) {}

  /** The writer's last write of an object. */
  private record LastWrite(
      String uid, String resourceVersion, QuotaStatus status, StatusMode mode) {}

  /** One object's state. */
  private static final class State {
    private LastWrite last;
    private final Deque<Instant> overwrites = new ArrayDeque<>();
    // -1: not in conflict; else how many times the wait grew since it entered.
    private int level = -1;
    // In conflict: when to write again (backing off) or, once retried, when the retry stood.
    private Instant retryAt;
    private Instant standsAt;
  }

  private final ConflictSettings settings;
  private final String fieldManager;
  private final Clock clock;
  private final Map<QuotaKey, State> states = new HashMap<>();
  private final Set<QuotaKey> inConflict = ConcurrentHashMap.newKeySet();

  /**
   * @param settings threshold, window and waits
   * @param fieldManager the writer's own field manager, whose changes are no other writer's
   * @param clock the time of overwrites and waits
   */
  StatusConflicts(final ConflictSettings settings, final String fieldManager, final Clock clock) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.fieldManager = Objects.requireNonNull(fieldManager, "fieldManager");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Looks at the object as now seen for an overwrite of the writer's last write to it.
   *
   * @return the overwrite, counted; empty when there is none
   */
  Optional<Overwrite> look(final QuotaKey key, final GenericKubernetesResource quota) {
    final State state = states.get(key);
    if (state == null || state.last == null) {
      return Optional.empty();
    }
    final LastWrite last = state.last;
    if (!Objects.equals(last.uid(), quota.getMetadata().getUid())) {
      // Deleted and created again: a new object, not a change of ours.
      state.last = null;
      return Optional.empty();
    }
    if (!newer(quota.getMetadata().getResourceVersion(), last.resourceVersion())) {
      return Optional.empty();
    }
    final List<List<String>> changed = last.status().fieldsNotShownBy(quota, last.mode());
    if (changed.isEmpty()) {
      return Optional.empty();
    }
    state.last = null;
    final Set<String> managers = FieldOwners.of(quota, changed);
    if (FieldOwners.tracked(quota) && managers.equals(Set.of(fieldManager))) {
      // Our own field manager changed them: another replica of ours, not another writer.
      return Optional.empty();
    }
    managers.remove(fieldManager);
    final Instant now = clock.instant();
    state.overwrites.addLast(now);
    final Instant since = now.minus(settings.window());
    while (!state.overwrites.isEmpty() && state.overwrites.peekFirst().isBefore(since)) {
      state.overwrites.removeFirst();
    }
    final boolean entered;
    if (state.level >= 0) {
      state.level++;
      entered = false;
    } else if (state.overwrites.size() >= settings.overwrites()) {
      state.level = 0;
      inConflict.add(key);
      entered = true;
    } else {
      return Optional.of(
          new Overwrite(
              names(changed), managers, state.overwrites.size(), false, false, Duration.ZERO));
    }
    final Duration wait = settings.backoff(state.level);
    state.retryAt = now.plus(wait);
    state.standsAt = null;
    return Optional.of(
        new Overwrite(names(changed), managers, state.overwrites.size(), true, entered, wait));
  }

  /** Whether the object is in conflict and its wait has not passed: it is not to be written. */
  boolean holding(final QuotaKey key) {
    final State state = states.get(key);
    return state != null
        && state.level >= 0
        && state.standsAt == null
        && clock.instant().isBefore(state.retryAt);
  }

  /**
   * The writer wrote {@code status} in {@code mode} with one patch; {@code after} is what the API
   * answered.
   */
  void wrote(
      final QuotaKey key,
      final GenericKubernetesResource after,
      final QuotaStatus status,
      final StatusMode mode) {
    wrote(key, after, after.getMetadata().getResourceVersion(), status, mode);
  }

  /**
   * The writer wrote {@code status} in {@code mode}; {@code after} is what the API answered the
   * last patch, {@code firstVersion} the version its first patch made. When {@code after} no longer
   * shows what was written, another writer changed it between the patches: the write is taken as of
   * the first patch, so that the next look counts the change.
   */
  void wrote(
      final QuotaKey key,
      final GenericKubernetesResource after,
      final String firstVersion,
      final QuotaStatus status,
      final StatusMode mode) {
    final State state = states.computeIfAbsent(key, ignored -> new State());
    final String version =
        status.fieldsNotShownBy(after, mode).isEmpty()
            ? after.getMetadata().getResourceVersion()
            : firstVersion;
    state.last = new LastWrite(after.getMetadata().getUid(), version, status, mode);
    retried(state);
  }

  /**
   * The object shows {@code status} without a write: a retry that is due counts as made (the other
   * writer stopped, or came round to the same values), and a retry that has stood for one {@link
   * ConflictSettings#backoff()} ends the conflict.
   *
   * @return whether the conflict ended now
   */
  boolean shown(
      final QuotaKey key,
      final GenericKubernetesResource quota,
      final QuotaStatus status,
      final StatusMode mode) {
    final State state = states.get(key);
    if (state == null || state.level < 0) {
      return false;
    }
    if (state.standsAt == null) {
      wrote(key, quota, status, mode);
      return false;
    }
    if (clock.instant().isBefore(state.standsAt)) {
      return false;
    }
    state.level = -1;
    state.retryAt = null;
    state.standsAt = null;
    state.overwrites.clear();
    inConflict.remove(key);
    return true;
  }

  private void retried(final State state) {
    if (state.level >= 0 && state.standsAt == null) {
      state.standsAt = clock.instant().plus(settings.backoff());
    }
  }

  /** The objects in conflict to look at again now: a wait or a retry's stand has passed. */
  List<QuotaKey> due() {
    final Instant now = clock.instant();
    final List<QuotaKey> due = new ArrayList<>();
    for (final QuotaKey key : inConflict) {
      final State state = states.get(key);
      final Instant at = state.standsAt != null ? state.standsAt : state.retryAt;
      if (!now.isBefore(at)) {
        due.add(key);
      }
    }
    return due;
  }

  /** Forgets a group (its runtime was deleted). */
  void forget(final QuotaKey key) {
    states.remove(key);
    inConflict.remove(key);
  }

  /** How many objects of {@code cluster} are in conflict; safe from any thread. */
  int inConflict(final String cluster) {
    return (int) inConflict.stream().filter(key -> key.getCluster().equals(cluster)).count();
  }

  /**
   * Whether resource version {@code seen} is later than {@code written}. An API server's are etcd
   * revisions, compared as numbers; opaque ones count as later when they differ.
   */
  static boolean newer(final String seen, final String written) {
    if (seen == null || written == null) {
      return seen != null && !seen.equals(written);
    }
    try {
      return Long.parseLong(seen) > Long.parseLong(written);
    } catch (NumberFormatException e) {
      return !seen.equals(written);
    }
  }

  private static List<String> names(final List<List<String>> paths) {
    return paths.stream().map(path -> String.join(".", path)).collect(Collectors.toList());
  }
}
