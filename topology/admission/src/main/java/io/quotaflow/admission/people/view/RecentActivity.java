package io.quotaflow.admission.people.view;

import io.quotaflow.quota.PodRef;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The recent evictions and denials of each cluster, kept in memory for the web view: at most {@code
 * limit} of each per cluster, the oldest dropped first. Evictions come from the topics the engine
 * and the eviction executor write ({@link KafkaEvictionFeed}); denials from this instance's pod
 * webhook and scheduler filter. Nothing here survives a restart. Thread-safe.
 */
public final class RecentActivity {

  /**
   * One eviction command and, once the executor answered, its outcome.
   *
   * @param commandId the command's id
   * @param pod the victim
   * @param group its over-used group
   * @param reason the engine's explanation
   * @param code the reason's code (docs/semantics.md section 19)
   * @param dimensionsOver the dimensions in which its group was over its runtime
   * @param attempt which attempt the command is
   * @param issuedAt when the engine issued it
   * @param outcome the executor's outcome ({@code EVICTED}, {@code DRY_RUN}, ...); empty while none
   * @param message the executor's detail; empty when none
   * @param completedAt when the outcome was settled
   */
  public record Eviction(
      String commandId,
      PodRef pod,
      String group,
      String reason,
      String code,
      List<String> dimensionsOver,
      int attempt,
      Instant issuedAt,
      Optional<String> outcome,
      String message,
      Optional<Instant> completedAt) {

    /** Requires every part. */
    public Eviction {
      Objects.requireNonNull(commandId, "commandId");
      Objects.requireNonNull(pod, "pod");
      Objects.requireNonNull(group, "group");
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(code, "code");
      dimensionsOver = List.copyOf(dimensionsOver);
      Objects.requireNonNull(issuedAt, "issuedAt");
      Objects.requireNonNull(outcome, "outcome");
      Objects.requireNonNull(message, "message");
      Objects.requireNonNull(completedAt, "completedAt");
    }
  }

  /**
   * A pod turned away (or only warned about, in warn mode), repeats of the same verdict counted.
   *
   * @param pod the pod
   * @param group its group
   * @param code the reason's code (docs/semantics.md section 19), of the first failing check
   * @param reason why it does not fit, for people
   * @param source which endpoint decided: {@code pod webhook} or {@code scheduler filter}
   * @param warnedOnly true in warn mode: the pod was admitted with a warning
   * @param last when it was last decided
   * @param count how many times in a row
   */
  public record Denial(
      PodRef pod,
      String group,
      String code,
      String reason,
      String source,
      boolean warnedOnly,
      Instant last,
      int count) {

    /** Requires every part. */
    public Denial {
      Objects.requireNonNull(pod, "pod");
      Objects.requireNonNull(group, "group");
      Objects.requireNonNull(code, "code");
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(last, "last");
    }

    boolean sameVerdict(Denial other) {
      return pod.equals(other.pod)
          && group.equals(other.group)
          && code.equals(other.code)
          && reason.equals(other.reason)
          && source.equals(other.source)
          && warnedOnly == other.warnedOnly;
    }
  }

  /** What is kept of one cluster. */
  private static final class Log {
    final Deque<Eviction> evictions = new ArrayDeque<>();
    final Deque<Denial> denials = new ArrayDeque<>();
  }

  private final int limit;
  private final Map<String, Log> clusters = new ConcurrentHashMap<>();
  private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();

  /** Keeps at most {@code limit} evictions and {@code limit} denials per cluster. */
  public RecentActivity(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be positive: " + limit);
    }
    this.limit = limit;
  }

  /** Calls {@code listener} with the cluster's name whenever its activity changes. */
  public void onChange(Consumer<String> listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /** Notes an eviction command; a command already noted (read again) is kept as it is. */
  public void commandIssued(String cluster, Eviction eviction) {
    final Log log = log(cluster);
    synchronized (log) {
      if (log.evictions.stream().anyMatch(e -> e.commandId().equals(eviction.commandId()))) {
        return;
      }
      log.evictions.addFirst(eviction);
      while (log.evictions.size() > limit) {
        log.evictions.removeLast();
      }
    }
    changed(cluster);
  }

  /**
   * Notes the executor's outcome of command {@code commandId}; ignored when the command is not
   * among the recent ones (issued before the view started reading).
   */
  public void resultArrived(
      String cluster, String commandId, String outcome, String message, Instant completedAt) {
    final Log log = log(cluster);
    boolean found = false;
    synchronized (log) {
      final List<Eviction> all = new ArrayList<>(log.evictions);
      for (int i = 0; i < all.size(); i++) {
        final Eviction e = all.get(i);
        if (e.commandId().equals(commandId)) {
          all.set(
              i,
              new Eviction(
                  e.commandId(),
                  e.pod(),
                  e.group(),
                  e.reason(),
                  e.code(),
                  e.dimensionsOver(),
                  e.attempt(),
                  e.issuedAt(),
                  Optional.of(outcome),
                  message,
                  Optional.of(completedAt)));
          found = true;
        }
      }
      if (found) {
        log.evictions.clear();
        log.evictions.addAll(all);
      }
    }
    if (found) {
      changed(cluster);
    }
  }

  /** Notes a denial; the same verdict as the latest one only counts up. */
  public void denied(String cluster, Denial denial) {
    final Log log = log(cluster);
    synchronized (log) {
      final Denial latest = log.denials.peekFirst();
      if (latest != null && latest.sameVerdict(denial)) {
        log.denials.removeFirst();
        log.denials.addFirst(
            new Denial(
                latest.pod(),
                latest.group(),
                latest.code(),
                latest.reason(),
                latest.source(),
                latest.warnedOnly(),
                denial.last(),
                latest.count() + denial.count()));
      } else {
        log.denials.addFirst(denial);
        while (log.denials.size() > limit) {
          log.denials.removeLast();
        }
      }
    }
    changed(cluster);
  }

  /** The recent evictions of {@code cluster}, newest first. */
  public List<Eviction> evictions(String cluster) {
    final Log log = clusters.get(cluster);
    if (log == null) {
      return List.of();
    }
    synchronized (log) {
      return List.copyOf(log.evictions);
    }
  }

  /** The recent denials of {@code cluster}, newest first. */
  public List<Denial> denials(String cluster) {
    final Log log = clusters.get(cluster);
    if (log == null) {
      return List.of();
    }
    synchronized (log) {
      return List.copyOf(log.denials);
    }
  }

  private Log log(String cluster) {
    return clusters.computeIfAbsent(cluster, name -> new Log());
  }

  private void changed(String cluster) {
    for (final Consumer<String> listener : listeners) {
      listener.accept(cluster);
    }
  }
}
